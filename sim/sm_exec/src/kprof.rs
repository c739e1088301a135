//! The records a kernel instrumented with `kernels/reference/kcommon.cuh`
//! leaves in its `rec` and `glog` buffers, decoded the way the H100 harness
//! decodes them: per warp its role, total cycles (`%clock64` at exit minus
//! at entry), per category the summed wait and count, and its logged events
//! (category, iteration, the clock before the synchronisation point and the
//! clock after the `st.shared` probe that follows it). Under an SM timing
//! preset the executor's `%clock64` is its cycle count, so the kernel
//! measures itself exactly as on the GPU (`membar calibrate --kernels`).

/// Categories of `kcommon.cuh` (`KCat`), by index.
pub const CATS: [&str; 14] = [
    "bar_sync",
    "bar_red",
    "bar_arrive",
    "mbar_wait",
    "mbar_arrive",
    "group_wait",
    "async_issue",
    "cluster_arrive",
    "cluster_wait",
    "fence",
    "grid_sync",
    "flag_wait",
    "atomic",
    "release_store",
];
/// Fixed words of a warp record: role, smid, cluster rank, tstart, tend,
/// gtstart, gtend, nevents.
const KNFIX: usize = 8;
/// u64 words per warp record.
pub const KRECW: usize = KNFIX + 2 * CATS.len();
/// Logged events per warp.
pub const KLOGCAP: usize = 64;

/// One logged synchronisation event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub cat: usize,
    pub iter: i32,
    /// Clock before the synchronisation point and after its probe,
    /// relative to the warp's start.
    pub t0: u64,
    pub t1: u64,
}

/// One warp's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarpRecord {
    pub gwarp: usize,
    pub role: usize,
    pub total: u64,
    /// Per category: summed cycles and count.
    pub acc: Vec<(u64, u64)>,
    pub events: Vec<Event>,
}

/// Decodes `nwarps` records from `rec` (u64 words) and `glog` (u32 words,
/// four per event: category, t0, t1, iteration). A record the kernel never
/// wrote (all zero) or a category out of range is an error naming the warp.
pub fn decode(rec: &[u64], glog: &[u64], nwarps: usize) -> Result<Vec<WarpRecord>, String> {
    if rec.len() < nwarps * KRECW {
        return Err(format!(
            "rec holds {} words, {nwarps} warps need {}",
            rec.len(),
            nwarps * KRECW
        ));
    }
    let mut out = Vec::new();
    for g in 0..nwarps {
        let r = &rec[g * KRECW..(g + 1) * KRECW];
        if r[4] == 0 {
            return Err(format!("warp {g}: no record (the kernel did not flush it)"));
        }
        let acc = (0..CATS.len())
            .map(|c| (r[KNFIX + 2 * c], r[KNFIX + 2 * c + 1]))
            .collect();
        let n = (r[7] as usize).min(KLOGCAP);
        let mut events = Vec::new();
        for i in 0..n {
            let b = 4 * (g * KLOGCAP + i);
            let Some(e) = glog.get(b..b + 4) else {
                return Err(format!("warp {g}: event {i} outside glog"));
            };
            let cat = e[0] as usize;
            if cat >= CATS.len() {
                return Err(format!("warp {g}: event {i} has category {cat}"));
            }
            events.push(Event {
                cat,
                t0: e[1] & 0xffff_ffff,
                t1: e[2] & 0xffff_ffff,
                iter: e[3] as u32 as i32,
            });
        }
        out.push(WarpRecord {
            gwarp: g,
            role: r[0] as usize,
            total: r[4].wrapping_sub(r[3]),
            acc,
            events,
        });
    }
    Ok(out)
}

/// Site names as the H100 summary gives them: `cat#k@phase`, `k` the
/// event's ordinal among its warp's events of that category and iteration,
/// `phase` `loop` for iterations `0..loop_iterations`, else `before` /
/// `after`.
pub fn site_names(
    events: &[Event],
    loop_iterations: i32,
    before: &str,
    after: &str,
) -> Vec<String> {
    let mut seen: std::collections::HashMap<(usize, i32), usize> = Default::default();
    events
        .iter()
        .map(|e| {
            let k = seen.entry((e.cat, e.iter)).or_insert(0);
            *k += 1;
            let phase = if e.iter < 0 {
                before
            } else if e.iter >= loop_iterations {
                after
            } else {
                "loop"
            };
            format!("{}#{}@{}", CATS[e.cat], k, phase)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_a_record_and_names_its_sites() {
        let mut rec = vec![0u64; 2 * KRECW];
        rec[KRECW] = 1; // warp 1: role 1
        rec[KRECW + 3] = 100;
        rec[KRECW + 4] = 350;
        rec[KRECW + 7] = 3;
        rec[KRECW + KNFIX] = 40; // bar_sync: 40 cycles
        rec[KRECW + KNFIX + 1] = 2;
        rec[4] = 9;
        let mut glog = vec![0u64; 2 * KLOGCAP * 4];
        let b = 4 * KLOGCAP;
        glog[b..b + 12].copy_from_slice(&[0, 10, 30, u32::MAX as u64, 0, 50, 70, 0, 2, 80, 90, 4]);
        let w = decode(&rec, &glog, 2).unwrap();
        assert_eq!(w[1].role, 1);
        assert_eq!(w[1].total, 250);
        assert_eq!(w[1].acc[0], (40, 2));
        assert_eq!(w[1].events[0].iter, -1);
        assert_eq!(
            site_names(&w[1].events, 4, "prologue", "final"),
            vec![
                "bar_sync#1@prologue",
                "bar_sync#1@loop",
                "bar_arrive#1@final"
            ]
        );
        rec[KRECW + 4] = 0;
        assert!(decode(&rec, &glog, 2).unwrap_err().contains("warp 1"));
    }
}
