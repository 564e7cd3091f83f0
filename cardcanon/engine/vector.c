/* cardcanon batched Snap: many games of cardcanon/envs/snap_v0.py stepped in one call.
 * Built on kernel.c, included whole (with its portability header, as kernel_unit.c), so that its
 * rules are the ones played: a separate library (built with the package, or by
 * cardcanon/engine/vector.py at first use) keeps kernel.c, and the SHA-256 that results record
 * of it, unchanged. Equality with the single environment, step by step, is checked by
 * tests/test_env_engine.py. */
#include "kernel_unit.c"

/* One slot: a game of the step interface (SnapGame), its step count, and the call window open
 * after a flip: the seats that decide (players in the game clockwise from the flipper, the flipper
 * first, as snap_v0's steps come) and what each chose (-1 no call, else a call kind). */
typedef struct {
    SnapGame g;
    i64 steps;
    int nw, pos;
    int8_t window[12], calls[12];
} SnapSlot;

/* The positions seen before each flip of every slot's episode (SNAP-END-4: snap_v0 truncates an
 * episode when one recurs). A record holds a position's hash, two links and sg_position's bytes
 * (all `len` long: the turn, the pot and every pile hold every card); records are `rec` bytes
 * apart in a pool that Python allocates and grows (`capacity` records). Each slot chains its
 * records into `buckets` lists (heads) and into one list (lists: its first and last record and
 * their number, linked by `link`) that goes back to the free list whole when the slot restarts.
 * meta[0]: the first free record (-1 none), meta[1]: the records free (those of the list, and
 * those never used), meta[2]: the records ever used (the others follow them). */
typedef struct {
    u8 *pool; int32_t *heads, *lists; i64 *meta;
    i64 capacity, len, rec, buckets;
} Seen;
typedef struct { u64 hash; int32_t chain, link; } Record;   /* then the position's bytes */

static inline Record *record(const Seen *z, int32_t r) { return (Record *)(z->pool + (i64)r * z->rec); }

static void seen_clear(Seen *z, i64 slot) {
    int32_t *list = z->lists + 3 * slot;
    if (list[0] >= 0) {
        record(z, list[1])->link = (int32_t)z->meta[0]; z->meta[0] = list[0]; z->meta[1] += list[2];
    }
    list[0] = list[1] = -1; list[2] = 0;
    for (i64 b = 0; b < z->buckets; b++) z->heads[slot * z->buckets + b] = -1;
}

/* Record the position of `g` for `slot`: 1 if the episode has seen it before (then nothing is
 * recorded), else 0. The caller makes sure that a free record exists. */
static int seen_add(const SnapCfg *cfg, Seen *z, i64 slot, const SnapGame *g) {
    u8 pos[2 + 2 * 12 + 52 + 8] = {0};
    i64 len = sg_position(cfg, g, pos);
    u64 h = (u64)len, word;
    for (i64 k = 0; k < len; k += 8) {          /* 8 bytes at a time (zeros after the position) */
        memcpy(&word, pos + k, 8);
        h = (h ^ word) * 0x9E3779B97F4A7C15ULL; h ^= h >> 29;
    }
    h ^= h >> 33; h *= 0xFF51AFD7ED558CCDULL; h ^= h >> 33;   /* every bit of h on the low ones */
    int32_t *head = &z->heads[slot * z->buckets + (i64)(h & (u64)(z->buckets - 1))];
    for (int32_t r = *head; r >= 0; r = record(z, r)->chain) {
        const Record *x = record(z, r);
        if (x->hash == h && !memcmp(x + 1, pos, (size_t)len)) return 1;
    }
    int32_t r;
    if (z->meta[0] >= 0) { r = (int32_t)z->meta[0]; z->meta[0] = record(z, r)->link; }
    else r = (int32_t)z->meta[2]++;
    z->meta[1]--;
    Record *x = record(z, r);
    x->hash = h; memcpy(x + 1, pos, (size_t)len);
    x->chain = *head; *head = r;
    int32_t *list = z->lists + 3 * slot;
    x->link = list[0]; list[0] = r; list[2]++;
    if (list[1] < 0) list[1] = r;
    return 0;
}

enum { A_FLIP = 0, A_PASS = 1 };             /* snap_v0.SnapAction; a call kind k is action 2 + k */
#define SV_OBS(n) (2 + 57 * (n) + 53)
#define SV_ACTIONS 5

/* The seat to step: the flipper, or the next seat of the call window; -1 when the game is over. */
static inline int sv_seat(const SnapSlot *v) {
    return v->g.phase == SG_CALL ? v->window[v->pos] : v->g.phase == SG_FLIP ? v->g.s.turn : -1;
}

/* The legal actions of the seat to step, as a bit mask (snap_v0 raw_env.action_mask). */
static inline int sv_legal(const SnapCfg *cfg, const SnapSlot *v) {
    if (v->g.phase == SG_FLIP) return 1 << A_FLIP;
    if (v->g.phase != SG_CALL) return 0;
    return 1 << A_PASS | (cfg->index_card ? 1 << (2 + K_HAND) : 1 << (2 + K_SNAP) | 1 << (2 + K_POT));
}

static void sv_show(const SnapCfg *cfg, const SnapSlot *v, float *obs, u8 *mask, int32_t *to_move) {
    int seat = sv_seat(v), legal = sv_legal(cfg, v);
    *to_move = seat;
    if (seat >= 0) sg_observe(cfg, &v->g, seat, obs);
    else memset(obs, 0, SV_OBS(cfg->players) * sizeof(float));
    for (int a = 0; a < SV_ACTIONS; a++) mask[a] = (u8)(legal >> a & 1);
}

static void sv_reset(const SnapCfg *cfg, SnapSlot *v, u64 seed, Seen *z, i64 slot) {
    sg_reset(cfg, &v->g, seed);
    v->steps = 0; v->nw = v->pos = 0;
    if (z) { seen_clear(z, slot); seen_add(cfg, z, slot, &v->g); }
}

/* One step of slot v: the flip, or one seat's decision in the call window (the window settled
 * after the last). rewards: -1 to each player going out (0 in a draw, SNAP-END-3), +1 to the
 * winner (SNAP-END-1/2). Returns 1 if the game is over, 2 if it is truncated (checked before each
 * flip, as snap_v0: after max_steps steps, or, with z, at a repeated position), else 0. */
static int sv_step(const SnapCfg *cfg, SnapSlot *v, int action, i64 max_steps, float *rewards, Seen *z, i64 slot) {
    int n = cfg->players;
    SnapGame *g = &v->g;
    for (int i = 0; i < n; i++) rewards[i] = 0.0f;
    v->steps++;
    if (g->phase == SG_FLIP) {                                    /* SNAP-FLIP-1, SNAP-CALL-3 */
        int f = g->s.turn;
        sg_flip(cfg, g);
        v->nw = v->pos = 0;
        for (int k = 0, j = f; k < n; k++, j = j + 1 == n ? 0 : j + 1) {
            v->calls[j] = -1;
            if (holds(&g->s, j)) v->window[v->nw++] = (int8_t)j;
        }
        return 0;
    }
    v->calls[v->window[v->pos++]] = (int8_t)(action == A_PASS ? -1 : action - 2);
    if (v->pos < v->nw) return 0;
    int before = 0, after = 0;
    for (int i = 0; i < n; i++) before |= holds(&g->s, i) << i;
    int32_t ev[3];
    sg_settle(cfg, g, v->calls, ev);
    for (int i = 0; i < n; i++) after |= holds(&g->s, i) << i;
    int over = g->phase == SG_OVER;
    i64 ending[8] = {0};
    if (over) snap_outcome(cfg, &g->s, ending);
    for (int i = 0; i < n; i++) {
        if ((before & ~after) >> i & 1) rewards[i] = over && ending[1] == T_NONE ? 0.0f : -1.0f;   /* SNAP-OUT-1 */
        else if (over && (after >> i & 1)) rewards[i] = 1.0f;
    }
    if (over) return 1;
    int repeated = z ? seen_add(cfg, z, slot, g) : 0;
    return repeated || (max_steps > 0 && v->steps >= max_steps) ? 2 : 0;
}

/* Every slot steps actions[i]; a finished slot (ended[i] 1 over, 2 truncated) writes its final
 * observation into `final` (that of the seat that stepped) and restarts with the next seed of its
 * own stream. Then every slot's seat to step, observation and mask. Returns 0, or 1 + i for the
 * first slot whose action is illegal (then nothing is played). */
static i64 sv_vec_step(const SnapCfg *cfg, SnapSlot *slots, i64 n, i64 max_steps, const int32_t *actions,
                       u64 *streams, float *obs, u8 *masks, int32_t *to_move, float *rewards, u8 *ended, Seen *z,
                       float *final) {
    int p = cfg->players;
    for (i64 i = 0; i < n; i++) {
        int a = actions[i];
        if (a < 0 || a >= SV_ACTIONS || !(sv_legal(cfg, &slots[i]) >> a & 1)) return 1 + i;
    }
    for (i64 i = 0; i < n; i++) {
        SnapSlot *v = &slots[i];
        int seat = sv_seat(v);
        int rc = sv_step(cfg, v, actions[i], max_steps, rewards + p * i, z, i);
        ended[i] = (u8)rc;
        if (rc) {
            sg_observe(cfg, &v->g, seat, final + SV_OBS(p) * i);
            sv_reset(cfg, v, sm_next(&streams[i]), z, i);
        }
        sv_show(cfg, v, obs + SV_OBS(p) * i, masks + SV_ACTIONS * i, to_move + i);
    }
    return 0;
}

i64 snap_slot_size(void) { return (i64)sizeof(SnapSlot); }

/* z (NULL: no repetition check) must have room for a record per slot, and every slot's lists */
static int seen_ok(const SnapCfg *cfg, const Seen *z, i64 seen_size, i64 n) {
    if (!z) return 0;
    if (seen_size != (i64)sizeof(Seen)) return E_ABI;
    if (z->len != 2 + 2 * cfg->players + cfg->ncards || z->rec < (i64)sizeof(Record) + z->len || z->rec % 8
        || z->buckets < 1 || (z->buckets & (z->buckets - 1)) || z->capacity > INT32_MAX
        || z->meta[2] > z->capacity || z->meta[1] < n) return E_BUFFER;
    return 0;
}

/* buf_len: the slots every buffer holds (obs SV_OBS(players) floats, masks 5 bytes, rewards
 * `players` floats per slot, z's heads `buckets` and lists 3; z's pool `capacity` records). */
i64 snap_vec_reset_checked(const SnapCfg *cfg, i64 cfg_size, SnapSlot *slots, i64 slots_size, i64 n, u64 seed0,
                           u64 *streams, float *obs, u8 *masks, int32_t *to_move, Seen *z, i64 seen_size,
                           i64 buf_len) {
    int rc = snap_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (n < 0) return E_CONFIG;
    if (slots_size / (i64)sizeof(SnapSlot) < n || buf_len < n) return E_BUFFER;
    if ((rc = seen_ok(cfg, z, seen_size, n))) return rc;
    for (i64 i = 0; i < n; i++) {
        streams[i] = seed0 + (u64)i;
        sv_reset(cfg, &slots[i], seed0 + (u64)i, z, i);
        sv_show(cfg, &slots[i], obs + SV_OBS(cfg->players) * i, masks + SV_ACTIONS * i, to_move + i);
    }
    return 0;
}

i64 snap_vec_step_checked(const SnapCfg *cfg, i64 cfg_size, SnapSlot *slots, i64 slots_size, i64 n, i64 max_steps,
                          const int32_t *actions, u64 *streams, float *obs, u8 *masks, int32_t *to_move,
                          float *rewards, u8 *ended, Seen *z, i64 seen_size, float *final, i64 buf_len) {
    int rc = snap_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (n < 0) return E_CONFIG;
    if (slots_size / (i64)sizeof(SnapSlot) < n || buf_len < n) return E_BUFFER;
    if ((rc = seen_ok(cfg, z, seen_size, n))) return rc;
    return sv_vec_step(cfg, slots, n, max_steps, actions, streams, obs, masks, to_move, rewards, ended, z, final);
}

/* ---- Hearts: kernel.c's batched step, keeping the final observation ---- */
/* As hg_vec_step; a finished match also writes its final observation into `final` (that of the
 * player who made the last play) before the slot starts its next match. */
static i64 hg_vec_step_final(const HeartsCfg *cfg, HeartsGame *games, i64 n, const int32_t *actions, u64 *streams,
                             float *obs, u8 *masks, int32_t *to_move, float *rewards, u8 *dones, float *final) {
    for (i64 i = 0; i < n; i++) {
        int a = actions[i];
        if (a < 0 || a >= 28 || !(hg_legal(cfg, &games[i]) >> a & 1)) return 1 + i;
    }
    for (i64 i = 0; i < n; i++) {
        HeartsGame *g = &games[i];
        int mover = g->to_move;
        int rc = hg_step(cfg, g, actions[i]);
        rewards[2 * i] = rewards[2 * i + 1] = 0.0f; dones[i] = 0;
        if (rc == 1) {
            rewards[2 * i + g->winner] = 1.0f; rewards[2 * i + 1 - g->winner] = -1.0f; dones[i] = 1;
            hg_observe(cfg, g, mover, final + H_OBS * i, NULL);
            hg_reset(cfg, g, sm_next(&streams[i]));
        }
        to_move[i] = g->to_move;
        hg_observe(cfg, g, g->to_move, obs + H_OBS * i, masks + 28 * i);
    }
    return 0;
}

/* buf_len: the slots every buffer holds (obs and final H_OBS floats, masks 28 bytes, rewards 2 per slot) */
i64 hearts_vec_step_final_checked(const HeartsCfg *cfg, i64 cfg_size, HeartsGame *games, i64 games_size, i64 n,
                                  const int32_t *actions, u64 *streams, float *obs, u8 *masks, int32_t *to_move,
                                  float *rewards, u8 *dones, float *final, i64 buf_len) {
    int rc = hearts_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (n < 0) return E_CONFIG;
    if (games_size / (i64)sizeof(HeartsGame) < n || buf_len < n) return E_BUFFER;
    return hg_vec_step_final(cfg, games, n, actions, streams, obs, masks, to_move, rewards, dones, final);
}

/* The SHA-256 of this file, set by the build (-DCARDCANON_SOURCE_SHA256="..."), so that a library
 * built from another version of it is recognised and not used. */
#ifndef CARDCANON_SOURCE_SHA256
#define CARDCANON_SOURCE_SHA256 "unknown"
#endif
const char *cardcanon_vector_source(void) { return CARDCANON_SOURCE_SHA256; }
