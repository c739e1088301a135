//! `membar sweep --shard I/N`: which slice of a grid's points one engine
//! runs. Point `p` belongs to shard `p mod N`, so every shard gets the same
//! rows (index, parameters, seed) as the unsharded run, interleaved for an
//! even share of slow and fast points; `--merge` joins the shards' CSVs.

use std::fmt;

/// Shard `index` of `count` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

/// Most shards a sweep may be split into.
pub const MAX_SHARDS: usize = 100_000;

impl Shard {
    /// Does the point with this index belong to the shard?
    pub fn owns(&self, point: usize) -> bool {
        point % self.count == self.index
    }

    /// The shard CSV's file name for a grid stem.
    pub fn file_name(&self, stem: &str) -> String {
        format!("{stem}.shard-{}-of-{}.csv", self.index, self.count)
    }

    /// Parse a shard CSV's file name back (`<stem>.shard-I-of-N.csv`).
    pub fn from_file_name(stem: &str, name: &str) -> Option<Shard> {
        let rest = name.strip_prefix(stem)?.strip_prefix(".shard-")?;
        let rest = rest.strip_suffix(".csv")?;
        let (i, n) = rest.split_once("-of-")?;
        let s = Shard {
            index: i.parse().ok()?,
            count: n.parse().ok()?,
        };
        (s.count >= 1 && s.index < s.count).then_some(s)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// `--shard I/N` with 0 <= I < N <= MAX_SHARDS (Slurm's
/// `$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT` with `--array=0-(N-1)`).
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let bad = || {
        format!(
            "{s:?}: expected I/N with 0 <= I < N <= {MAX_SHARDS} (shard I of N, counting from 0), e.g. 0/4"
        )
    };
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let index: usize = i.trim().parse().map_err(|_| bad())?;
    let count: usize = n.trim().parse().map_err(|_| bad())?;
    if count == 0 || count > MAX_SHARDS || index >= count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}
