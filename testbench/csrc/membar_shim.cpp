// C ABI around the Verilated `membar_unit`, loaded from Rust with libloading
// (crate membar-testbench, src/verilator.rs). One call of membar_step is one
// clock cycle, exactly like membar_sim::Dut::step:
//   1. clock low, apply this cycle's inputs, eval  -> outputs of this cycle
//      (combinational outputs such as req_ready see this cycle's inputs);
//   2. read the outputs;
//   3. clock high, eval (the rising edge); clock low again is applied at the
//      start of the next call.
// With MEMBAR_TRACE_FST (`verilator --trace-fst`) or MEMBAR_TRACE_VCD
// (`verilator --trace`) defined, a waveform can be opened (membar_trace_open,
// also in the middle of a run: the first sample is a full dump); every
// half cycle is dumped: time 10*c = clock low with the inputs of cycle c,
// 10*c+5 = after the rising edge.
//
// The port types (CData/SData/IData/QData) depend on the configured widths;
// plain assignments convert, so this file serves every configuration.
// Only the membar_* functions are exported (the library is built with
// -fvisibility=hidden), so several Verilated models of different
// configurations can live in one process.

#include "Vmembar_unit.h"
#include "verilated.h"
#include <cstdint>
#include <cstring>
#if defined(MEMBAR_TRACE_FST)
#include "verilated_fst_c.h"
#define MEMBAR_TRACE 1
typedef VerilatedFstC TraceFile;
#elif defined(MEMBAR_TRACE_VCD)
#include "verilated_vcd_c.h"
#define MEMBAR_TRACE 1
typedef VerilatedVcdC TraceFile;
#endif

#define MEMBAR_API extern "C" __attribute__((visibility("default")))

// Must match `InputsC` in src/verilator.rs (repr(C)).
struct InputsC {
    uint8_t reset, req_valid, req_warp, req_op, req_level, req_ivall;
    uint16_t req_id;
    uint8_t dn_ready, ack_valid, ack_tag, bar_ack_valid, bar_ack_tag;
    uint8_t _pad[3];
};

// Must match `OutputsC` in src/verilator.rs (repr(C)).
struct OutputsC {
    uint64_t warp_blocked, release_mask;
    uint16_t dn_id;
    uint8_t req_ready, dn_valid, dn_kind, dn_tag, dn_warp, dn_op, dn_level, dn_ack_req,
        release_valid, err;
};

struct Handle {
    VerilatedContext* ctx;
    Vmembar_unit* top;
    uint64_t cycle;
#ifdef MEMBAR_TRACE
    TraceFile* tfp;
#endif
};

// ABI version: bump when InputsC/OutputsC or a signature changes.
MEMBAR_API uint32_t membar_abi_version() { return 1; }

// 0: no tracing compiled in; 1: FST; 2: VCD.
MEMBAR_API uint32_t membar_traced() {
#if defined(MEMBAR_TRACE_FST)
    return 1;
#elif defined(MEMBAR_TRACE_VCD)
    return 2;
#else
    return 0;
#endif
}

MEMBAR_API uint32_t membar_sizeof_inputs() { return sizeof(InputsC); }
MEMBAR_API uint32_t membar_sizeof_outputs() { return sizeof(OutputsC); }

MEMBAR_API void* membar_create() {
    Handle* h = new Handle();
    h->ctx = new VerilatedContext();
    h->ctx->debug(0);
    h->ctx->randReset(0);  // X -> 0 (Verilator default); DFF `initial` values then apply
#ifdef MEMBAR_TRACE
    h->ctx->traceEverOn(true);
    h->tfp = nullptr;
#endif
    h->top = new Vmembar_unit(h->ctx, "membar_unit");
    h->cycle = 0;
    h->top->clock = 0;
    h->top->reset = 0;
    h->top->eval();
    return h;
}

// Returns 0 on success, -1 when this build has no tracing, -2 on a bad call.
MEMBAR_API int32_t membar_trace_open(void* hp, const char* path) {
    Handle* h = static_cast<Handle*>(hp);
    if (!h || !path) return -2;
#ifdef MEMBAR_TRACE
    if (h->tfp) return -2;
    h->tfp = new TraceFile();
    h->top->trace(h->tfp, 99);
    h->tfp->open(path);
    if (!h->tfp->isOpen()) {
        delete h->tfp;
        h->tfp = nullptr;
        return -2;
    }
    return 0;
#else
    return -1;
#endif
}

MEMBAR_API void membar_trace_flush(void* hp) {
    Handle* h = static_cast<Handle*>(hp);
    (void)h;
#ifdef MEMBAR_TRACE
    if (h && h->tfp) h->tfp->flush();
#endif
}

MEMBAR_API void membar_trace_close(void* hp) {
    Handle* h = static_cast<Handle*>(hp);
    (void)h;
#ifdef MEMBAR_TRACE
    if (h && h->tfp) {
        // Leave a final sample so the last cycle is visible in viewers.
        h->tfp->dump(10 * h->cycle);
        h->tfp->close();
        delete h->tfp;
        h->tfp = nullptr;
    }
#endif
}

MEMBAR_API void membar_destroy(void* hp) {
    Handle* h = static_cast<Handle*>(hp);
    if (!h) return;
    membar_trace_close(h);
    h->top->final();
    delete h->top;
    delete h->ctx;
    delete h;
}

MEMBAR_API void membar_step(void* hp, const InputsC* in, OutputsC* out) {
    Handle* h = static_cast<Handle*>(hp);
    Vmembar_unit* t = h->top;
    // Phase 1: clock low, this cycle's inputs.
    t->clock = 0;
    t->reset = in->reset;
    t->req_valid = in->req_valid;
    t->req_warp = in->req_warp;
    t->req_op = in->req_op;
    t->req_level = in->req_level;
    t->req_ivall = in->req_ivall;
    t->req_id = in->req_id;
    t->dn_ready = in->dn_ready;
    t->ack_valid = in->ack_valid;
    t->ack_tag = in->ack_tag;
    t->bar_ack_valid = in->bar_ack_valid;
    t->bar_ack_tag = in->bar_ack_tag;
    h->ctx->time(10 * h->cycle);
    t->eval();
#ifdef MEMBAR_TRACE
    if (h->tfp) h->tfp->dump(10 * h->cycle);
#endif
    // Phase 2: this cycle's outputs.
    out->req_ready = t->req_ready;
    out->dn_valid = t->dn_valid;
    out->dn_kind = t->dn_kind;
    out->dn_tag = t->dn_tag;
    out->dn_warp = t->dn_warp;
    out->dn_op = t->dn_op;
    out->dn_level = t->dn_level;
    out->dn_ack_req = t->dn_ack_req;
    out->dn_id = t->dn_id;
    out->warp_blocked = t->warp_blocked;
    out->release_valid = t->release_valid;
    out->release_mask = t->release_mask;
    out->err = t->err;
    // Phase 3: rising edge.
    t->clock = 1;
    h->ctx->time(10 * h->cycle + 5);
    t->eval();
#ifdef MEMBAR_TRACE
    if (h->tfp) h->tfp->dump(10 * h->cycle + 5);
#endif
    h->cycle++;
}

// Many cycles in one call, for measuring the Verilated model alone (no FFI
// cost per cycle). Inputs are read from `ins[i % n_ins]`; outputs are
// XOR-folded into *sink so nothing is optimised away.
MEMBAR_API void membar_step_many(void* hp, const InputsC* ins, uint64_t n_ins, uint64_t cycles, uint64_t* sink) {
    OutputsC o;
    uint64_t acc = 0;
    for (uint64_t c = 0; c < cycles; c++) {
        membar_step(hp, &ins[c % n_ins], &o);
        acc ^= o.warp_blocked ^ o.release_mask ^ ((uint64_t)o.dn_id << 8) ^ o.req_ready ^ ((uint64_t)o.dn_valid << 1);
    }
    *sink ^= acc;
}
