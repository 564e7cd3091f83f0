/* cardcanon fast engine: Snap and two-player Hearts, move for move the reference models
 * (model/snap.py, model/snap_policies.py, model/hearts.py, model/hearts_players.py).
 * Compiled at first use by cardcanon/engine/build.py and loaded with ctypes.
 * Equality with the reference models is checked by tests/test_engine_equivalence.py. */
#include <stdint.h>
#include <string.h>

typedef uint64_t u64;
typedef int64_t i64;
typedef uint8_t u8;

/* ---- SplitMix64, bounded draw, Fisher-Yates: model/shuffle.py ---------------------------- */
static inline u64 sm_next(u64 *s) {
    u64 z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static inline u64 sm_below(u64 *s, u64 n) {
    u64 t = (0 - n) % n; /* 2**64 mod n */
    for (;;) { u64 x = sm_next(s); if (x >= t) return x % n; }
}
static void sm_shuffle(u64 *s, u8 *a, int len) {
    for (int i = len - 1; i > 0; i--) {
        int j = (int)sm_below(s, (u64)(i + 1));
        u8 t = a[i]; a[i] = a[j]; a[j] = t;
    }
}

/* ======================================= Snap ============================================== */
#define RING 64 /* > 52: a pile never holds more cards than the deck */
enum { K_SNAP = 0, K_POT = 1, K_HAND = 2 };
enum { POL_FLIPPER = 0, POL_OWNER = 1, POL_TIES = 2, POL_ERRORS = 3 };
enum { EV_NOCALL = 0, EV_CALL = 1, EV_TIE = 2 };
enum { ST_ENDED = 0, ST_ENDLESS = 1, ST_CAPPED = 2 };
/* endings: SNAP-END-1; SNAP-END-2 with the pot stuck (no card of its top rank outside it, so no
 * flip can ever win it) or still winnable; SNAP-END-3 (engine/snap.py ENDINGS) */
enum { T_ALL = 0, T_STUCK = 1, T_NONE = 2, T_WINNABLE = 3 };

typedef struct {
    int players, index_card, next_winner, policy;
    u64 rate_threshold; int rate_always; /* _chance: rng.next() < int(rate * 2**64) */
    int ncards; u8 deck[52];            /* canonical card indices (0..51), config.deck order */
} SnapCfg;

typedef struct {
    u8 dc[12][RING]; u8 dh[12], dn[12]; /* face-down: ring, top at dh, dn cards */
    u8 uc[12][RING]; u8 un[12];         /* face-up: stack, index 0 = bottom */
    u8 pc[RING]; u8 pn;                 /* Snap Pot: stack, index 0 = bottom */
    int turn, over;
} SnapState;

static const u8 RANK[52] = { /* card index -> rank (index mod 13) */
    0,1,2,3,4,5,6,7,8,9,10,11,12, 0,1,2,3,4,5,6,7,8,9,10,11,12,
    0,1,2,3,4,5,6,7,8,9,10,11,12, 0,1,2,3,4,5,6,7,8,9,10,11,12};

typedef struct { uint16_t flipper, event, who, kind; } SnapMove; /* who: caller, or tie mask */

static inline int holds(const SnapState *s, int i) { return s->dn[i] || s->un[i]; }
static inline void down_push_bottom(SnapState *s, int i, u8 c) {
    s->dc[i][(u8)(s->dh[i] + s->dn[i]) & (RING - 1)] = c; s->dn[i]++;
}
static inline u8 down_pop_top(SnapState *s, int i) {
    u8 c = s->dc[i][s->dh[i]]; s->dh[i] = (u8)(s->dh[i] + 1) & (RING - 1); s->dn[i]--; return c;
}
static inline void turn_over(SnapState *s, int i) { /* SNAP-FLIP-3: down = reversed(up) */
    memcpy(s->dc[i], s->uc[i], s->un[i]); s->dh[i] = 0; s->dn[i] = s->un[i]; s->un[i] = 0;
}

/* _next_flip: end (SNAP-END-1/2/3) or pass the turn (SNAP-TURN-1/2, SNAP-OUT-1) */
static void next_flip(const SnapCfg *cfg, SnapState *s, int after, int winner) {
    int n = cfg->players, holders = 0;
    for (int i = 0; i < n; i++) holders += holds(s, i);
    if (holders <= 1) { s->over = 1; return; }
    if (winner >= 0 && cfg->next_winner) { s->turn = winner; return; }
    for (int k = 1, j = after; k <= n; k++) { if (++j == n) j = 0; if (holds(s, j)) { s->turn = j; return; } }
}

static void snap_deal(const SnapCfg *cfg, SnapState *s, int dealer, const u8 *order) {
    int n = cfg->players;
    memset(s, 0, sizeof *s);
    /* SNAP-DEAL-2/3: one at a time clockwise from the dealer's left; the last dealt is the top */
    for (int i = cfg->ncards - 1; i >= 0; i--) { int p = (dealer + 1 + i) % n; s->dc[p][s->dn[p]++] = order[i]; }
    next_flip(cfg, s, dealer, -1); /* SNAP-TURN-1 */
}

static int snap_equal(const SnapCfg *cfg, const SnapState *a, const SnapState *b) {
    int n = cfg->players;
    if (a->turn != b->turn || a->pn != b->pn) return 0;
    for (int i = 0; i < n; i++) if (a->dn[i] != b->dn[i] || a->un[i] != b->un[i]) return 0;
    if (memcmp(a->pc, b->pc, a->pn)) return 0;
    for (int i = 0; i < n; i++) {
        if (memcmp(a->uc[i], b->uc[i], a->un[i])) return 0;
        for (int k = 0; k < a->dn[i]; k++)
            if (a->dc[i][(a->dh[i] + k) & (RING - 1)] != b->dc[i][(b->dh[i] + k) & (RING - 1)]) return 0;
    }
    return 1;
}

/* A flip (SNAP-FLIP-1/3) and what it matches (SNAP-MATCH-1/2): the facts every call is settled on. */
typedef struct { int f, nm, pot_match, kind; int matched[12]; int correct[3]; } SnapFlip;

static inline void snap_flip(const SnapCfg *cfg, SnapState *s, SnapFlip *fl) {
    int n = cfg->players, f = s->turn;
    if (!s->dn[f]) turn_over(s, f);                 /* SNAP-FLIP-3 */
    u8 card = down_pop_top(s, f);
    s->uc[f][s->un[f]++] = card;                    /* SNAP-FLIP-1 */
    int rank = RANK[card], nm = 0;
    for (int k = 1, j = f; k < n; k++) {            /* SNAP-MATCH-1/2, clockwise from the flipper */
        if (++j == n) j = 0;
        if (s->un[j] && RANK[s->uc[j][s->un[j] - 1]] == rank) fl->matched[nm++] = j;
    }
    fl->f = f; fl->nm = nm;
    fl->pot_match = s->pn && RANK[s->pc[s->pn - 1]] == rank;
    fl->correct[0] = fl->correct[1] = fl->correct[2] = 0;
    if (cfg->index_card) fl->correct[K_HAND] = nm || fl->pot_match;
    else { fl->correct[K_SNAP] = nm > 0; fl->correct[K_POT] = fl->pot_match; }
    fl->kind = fl->correct[K_POT] ? K_POT : fl->correct[K_SNAP] ? K_SNAP : fl->correct[K_HAND] ? K_HAND : -1;
}

/* The call event of a flip applied (model/snap.py _apply_call_event). Returns 1 when the game is over. */
static inline int snap_resolve(const SnapCfg *cfg, SnapState *s, const SnapFlip *fl, int event, int caller,
                               int call_kind) {
    int n = cfg->players, f = fl->f, nm = fl->nm;
    if (event == EV_NOCALL) { next_flip(cfg, s, f, -1); return s->over; }  /* SNAP-CALL-3 */
    if (event == EV_TIE) {  /* SNAP-TIE-1/2, SNAP-POT-2: piles onto the pot, the flipper's uppermost */
        for (int m = nm - 1; m >= -1; m--) {
            int j = m < 0 ? f : fl->matched[m];
            memcpy(s->pc + s->pn, s->uc[j], s->un[j]); s->pn += s->un[j]; s->un[j] = 0;
        }
        next_flip(cfg, s, f, -1); return s->over;
    }
    if (fl->correct[call_kind]) {  /* SNAP-CALL-1/4/5, SNAP-POT-1/3, SNAP-INDEX-1: the caller wins */
        int won_pot = call_kind == K_POT || (call_kind == K_HAND && fl->pot_match);
        for (int m = -1; m < nm; m++) {
            int j = m < 0 ? f : fl->matched[m];
            for (int k = 0; k < s->un[j]; k++) down_push_bottom(s, caller, s->uc[j][k]);
            s->un[j] = 0;
        }
        if (won_pot) { for (int k = 0; k < s->pn; k++) down_push_bottom(s, caller, s->pc[k]); s->pn = 0; }
        next_flip(cfg, s, f, caller); return s->over;
    }
    /* SNAP-PEN-1/2/3: a wrong caller gives his top face-down card away */
    int recipient = f;
    if (caller == f)
        for (int k = 1; k < n; k++) { int j = ((f - k) % n + n) % n; if (holds(s, j)) { recipient = j; break; } }
    if (!s->dn[caller]) turn_over(s, caller);
    down_push_bottom(s, recipient, down_pop_top(s, caller));
    next_flip(cfg, s, f, -1); return s->over;
}

/* The call event the policy (model/snap_policies.py) makes of a flip: ev[0..3] event, caller, kind, tie mask. */
static void snap_policy_event(const SnapCfg *cfg, const SnapState *s, const SnapFlip *flip, u64 *rng, int *ev) {
    const SnapFlip fl = *flip;
    int n = cfg->players, f = fl.f, kind = fl.kind;
    const int *correct = fl.correct;
    int event = EV_NOCALL, caller = f, call_kind = kind, tie_mask = 0;
    if (cfg->policy == POL_ERRORS) {
        int wrong[2], nw = 0;
        if (cfg->index_card) { if (!correct[K_HAND]) wrong[nw++] = K_HAND; }
        else { if (!correct[K_SNAP]) wrong[nw++] = K_SNAP; if (!correct[K_POT]) wrong[nw++] = K_POT; }
        if (nw && (sm_next(rng) < cfg->rate_threshold || cfg->rate_always)) {
            int callers[12], nc = 0;
            for (int i = 0; i < n; i++) if (holds(s, i)) callers[nc++] = i;
            caller = callers[sm_below(rng, (u64)nc)];
            call_kind = wrong[sm_below(rng, (u64)nw)];
            event = EV_CALL;
        } else if (kind >= 0) event = EV_CALL;
    } else if (kind >= 0) {
        event = EV_CALL;
        if (cfg->policy == POL_OWNER && kind != K_POT && fl.nm) caller = fl.matched[0];
        else if (cfg->policy == POL_TIES && !cfg->index_card &&
                 (sm_next(rng) < cfg->rate_threshold || cfg->rate_always)) {
            u8 pool[12]; int nc = 0;
            for (int i = 0; i < n; i++) if (holds(s, i)) pool[nc++] = (u8)i;
            int size = 2 + (int)sm_below(rng, (u64)(nc - 1));
            sm_shuffle(rng, pool, nc);
            for (int i = 0; i < size; i++) tie_mask |= 1 << pool[i];
            event = EV_TIE;
        }
    }
    ev[0] = event; ev[1] = caller; ev[2] = call_kind; ev[3] = tie_mask;
}

/* One flip and its call window. Returns 1 when the game is over. */
static int snap_step(const SnapCfg *cfg, SnapState *s, u64 *rng, SnapMove *rec) {
    SnapFlip fl;
    int ev[4];
    snap_flip(cfg, s, &fl);
    snap_policy_event(cfg, s, &fl, rng, ev);
    int f = fl.f, event = ev[0], caller = ev[1], call_kind = ev[2], tie_mask = ev[3];
    if (rec) { rec->flipper = (uint16_t)f; rec->event = (uint16_t)event;
               rec->who = (uint16_t)(event == EV_TIE ? tie_mask : event == EV_CALL ? caller : 0);
               rec->kind = (uint16_t)(event == EV_NOCALL ? 0 : call_kind); }
    return snap_resolve(cfg, s, &fl, event, caller, call_kind);
}

static void snap_outcome(const SnapCfg *cfg, const SnapState *s, i64 *out) {
    int holder = -1;
    for (int i = 0; i < cfg->players; i++) if (holds(s, i)) { holder = i; break; }
    out[1] = holder < 0 ? T_NONE : s->pn ? T_STUCK : T_ALL;
    out[2] = holder;
    if (holder >= 0 && s->pn) {
        int rank = RANK[s->pc[s->pn - 1]];
        for (int k = 0; k < s->dn[holder]; k++)
            if (RANK[s->dc[holder][(s->dh[holder] + k) & (RING - 1)]] == rank) out[1] = T_WINNABLE;
        for (int k = 0; k < s->un[holder]; k++) if (RANK[s->uc[holder][k]] == rank) out[1] = T_WINNABLE;
    }
}

/* Play one deal. order == NULL: draw the dealer and the shuffle from `seed` (sample_deal);
 * else play the given deal (random policies then draw from `seed`).
 * out[0..7]: status, termination, winner, flips, cycle start, cycle length, dealer, pot size.
 * Deterministic policies: Brent's cycle detection on whole positions (SNAP-END-4), exact for
 * repeats within `cap` flips. Random policies: played to `cap` flips.
 * moves != NULL: the call events of the reported flips are written there (at most `cap`). */
int snap_play(const SnapCfg *cfg, u64 seed, int dealer, const u8 *order, i64 cap, i64 *out, SnapMove *moves) {
    u64 rng = seed;
    u8 deal[52];
    if (!order) {
        dealer = (int)sm_below(&rng, (u64)cfg->players);
        memcpy(deal, cfg->deck, cfg->ncards);
        sm_shuffle(&rng, deal, cfg->ncards);
        order = deal;
    }
    u64 rng0 = rng;
    SnapState x0, x, t;
    snap_deal(cfg, &x0, dealer, order);
    memset(out, 0, 8 * sizeof(i64));
    out[6] = dealer;
    i64 flips = 0, target = -1;
    int deterministic = cfg->policy == POL_FLIPPER || cfg->policy == POL_OWNER;
    x = x0;
    if (!x.over && deterministic) {
        i64 power = 1, lam = 1, limit = 4 * cap + 16;
        t = x0;
        int ended = snap_step(cfg, &x, &rng, 0); flips = 1;
        while (!ended && !snap_equal(cfg, &x, &t) && flips < limit) {
            if (power == lam) { t = x; power *= 2; lam = 0; }
            ended = snap_step(cfg, &x, &rng, 0); flips++; lam++;
        }
        if (ended) target = flips;
        else if (flips >= limit) target = cap;
        else {
            SnapState h = x0; x = x0;
            for (i64 k = 0; k < lam; k++) snap_step(cfg, &h, &rng, 0);
            i64 mu = 0;
            while (!snap_equal(cfg, &x, &h)) { snap_step(cfg, &x, &rng, 0); snap_step(cfg, &h, &rng, 0); mu++; }
            if (mu + lam <= cap) { out[0] = ST_ENDLESS; out[4] = mu; out[5] = lam; }
            target = mu + lam < cap ? mu + lam : cap;
        }
        if (target > cap) target = cap;
        if (!moves && out[0] == ST_ENDLESS) { out[3] = target; return 0; }
        if (!moves && ended && flips <= cap) { out[3] = flips; out[7] = x.pn; snap_outcome(cfg, &x, out); return 0; }
        x = x0; rng = rng0; flips = 0;
    }
    /* straight play: random policies, or a deterministic replay of `target` flips */
    i64 stop = target >= 0 ? target : cap;
    while (!x.over && flips < stop) {
        snap_step(cfg, &x, &rng, moves ? moves + flips : 0);
        flips++;
    }
    out[3] = flips;
    out[7] = x.pn;
    if (x.over) snap_outcome(cfg, &x, out);
    else if (out[0] != ST_ENDLESS) out[0] = ST_CAPPED;
    return 0;
}

/* The deal of `seed` (sample_deal): writes the order, returns the dealer. */
int snap_sample_deal(const SnapCfg *cfg, u64 seed, u8 *order) {
    u64 rng = seed;
    int dealer = (int)sm_below(&rng, (u64)cfg->players);
    memcpy(order, cfg->deck, cfg->ncards);
    sm_shuffle(&rng, order, cfg->ncards);
    return dealer;
}

/* Many seeded deals: seeds seed0 .. seed0 + count - 1; out holds 8 numbers per deal. */
int snap_batch(const SnapCfg *cfg, u64 seed0, i64 count, i64 cap, i64 *out) {
    for (i64 k = 0; k < count; k++) snap_play(cfg, seed0 + (u64)k, 0, 0, cap, out + 8 * k, 0);
    return 0;
}

/* Every deal of a small deck (all dealers, all orders by index permutation, deterministic
 * policies). tally[status * 3 + termination] counts deals; flips_hist[min(flips, hist_len-1)]
 * counts ended games by length. Returns the number of deals. */
i64 snap_enumerate(const SnapCfg *cfg, i64 cap, i64 *tally, i64 *flips_hist, i64 hist_len) {
    int len = cfg->ncards, idx[52];
    u8 order[52];
    i64 out[8], deals = 0;
    for (int d = 0; d < cfg->players; d++) {
        for (int i = 0; i < len; i++) idx[i] = i;
        for (;;) {
            for (int i = 0; i < len; i++) order[i] = cfg->deck[idx[i]];
            snap_play(cfg, 0, d, order, cap, out, 0);
            tally[out[0] * 3 + (out[0] == ST_ENDED ? out[1] : 0)]++;
            if (out[0] == ST_ENDED) flips_hist[out[3] < hist_len ? out[3] : hist_len - 1]++;
            deals++;
            int i = len - 2;                     /* next permutation (lexicographic) */
            while (i >= 0 && idx[i] >= idx[i + 1]) i--;
            if (i < 0) break;
            int j = len - 1;
            while (idx[j] <= idx[i]) j--;
            int tmp = idx[i]; idx[i] = idx[j]; idx[j] = tmp;
            for (int a = i + 1, b = len - 1; a < b; a++, b--) { tmp = idx[a]; idx[a] = idx[b]; idx[b] = tmp; }
        }
    }
    return deals;
}

/* ====================================== Hearts ============================================= */
/* Cards are indices into hearts DECK (0..27): suit = i / 7, rank order = i % 7. */
#define H_FULL ((1u << 28) - 1)
#define H_HEARTS (0x7Fu << 14)
#define H_NONHEARTS (H_FULL & ~H_HEARTS)
#define H_QS 26 /* queen of spades: spades 21..27, ranks 2 4 6 8 10 Q A */
#define H_POINTS (H_HEARTS | (1u << H_QS))

typedef struct {
    int lowest_club_lead, break_void, first_no_hearts, moon_in_play, queen_breaks, target;
    int kinds[2]; /* 0 random, 1 greedy */
    /* the rulebook's numbers (model/hearts_types.py), passed at run time so that an edit of the
     * rulebook reaches the kernel: HEARTS-QUEEN-1, HEARTS-SCORE-1, HEARTS-MOON-1, HEARTS-DEAL-2,
     * HEARTS-TRICK-3; tally_dim = the largest possible hand score + 1 (rows of pair_tally) */
    int queen_points, heart_points, moon_shooter_points, moon_other_points, hand_size, tricks_per_hand, tally_dim;
} HeartsCfg;

static inline int popcount28(uint32_t m) { return __builtin_popcount(m); }
static inline int nth_bit(uint32_t m, int k) { while (k--) m &= m - 1; return __builtin_ctz(m); }
static inline int h_points(const HeartsCfg *cfg, uint32_t m) {
    return popcount28(m & H_HEARTS) * cfg->heart_points + ((m >> H_QS) & 1 ? cfg->queen_points : 0);
}

static int greedy_choice(uint32_t legal, int lead) {
    if (lead < 0) { /* leading: the lowest card, non-hearts first (ties by suit) */
        uint32_t pool = legal & H_NONHEARTS ? legal & H_NONHEARTS : legal;
        int best = -1;
        for (uint32_t m = pool; m; m &= m - 1) { int c = __builtin_ctz(m);
            if (best < 0 || c % 7 < best % 7) best = c; }
        return best;
    }
    int ls = lead / 7, low = __builtin_ctz(legal);
    if (low / 7 == ls) { /* following: the highest losing card, else the lowest */
        int best = -1;
        for (uint32_t m = legal; m; m &= m - 1) { int c = __builtin_ctz(m); if (c < lead) best = c; }
        return best >= 0 ? best : low;
    }
    /* discarding: queen of spades, then the highest heart, then the highest card (first suit) */
    if (legal >> H_QS & 1) return H_QS;
    if (legal & H_HEARTS) return 31 - __builtin_clz(legal & H_HEARTS);
    int best = -1;
    for (uint32_t m = legal; m; m &= m - 1) { int c = __builtin_ctz(m); if (best < 0 || c % 7 > best % 7) best = c; }
    return best;
}

/* One match. out[0..7]: hands, termination (0 one-reached, 1 both-reached, 2 tie-broken), winner,
 * score 0, score 1, moons by seat 0, moons by seat 1, first dealer. hand_scores (2 per hand, up to
 * max_hands) and moves (dealer byte, then per hand 28 order bytes and 2 * hand_size (player, card) pairs),
 * when not NULL. pair_tally[a * tally_dim + b] counts hand scores (a, b) when not NULL.
 * Returns 0, -1 if the match has more than max_hands hands, or -2 if a player has no legal
 * card or no club can lead (impossible under the rulebook's numbers; reported, not played through). */
int hearts_match(const HeartsCfg *cfg, u64 seed, u64 seed_p0, u64 seed_p1, i64 max_hands, i64 *out,
                 int32_t *hand_scores, u8 *moves, i64 *pair_tally) {
    u64 rng = seed, prng[2] = {seed_p0, seed_p1};
    int dealer = (int)sm_below(&rng, 2), scores[2] = {0, 0}, hands = 0, moons[2] = {0, 0};
    memset(out, 0, 8 * sizeof(i64));
    out[7] = dealer;
    if (moves) *moves++ = (u8)dealer;
    for (;;) {
        if (hands >= max_hands) return -1;
        u8 order[28];
        for (int i = 0; i < 28; i++) order[i] = (u8)i;
        sm_shuffle(&rng, order, 28);
        if (moves) { memcpy(moves, order, 28); moves += 28; }
        uint32_t hand[2] = {0, 0}, taken[2] = {0, 0};
        int first = 1 - dealer;   /* HEARTS-DEAL-2 */
        int dealt = 2 * cfg->hand_size;
        for (int p = 1; p <= dealt; p++) hand[p % 2 ? first : dealer] |= 1u << order[p];
        uint32_t dead = 1u << order[0];
        for (int p = dealt + 1; p < 28; p++) dead |= 1u << order[p];
        if (!(~dead & 0x7Fu)) return -2;           /* every club dead: nobody can lead (as the model) */
        int club = __builtin_ctz(~dead & 0x7Fu);  /* HEARTS-LEAD-1/2: the lowest live club */
        int forced = (club == 0 || cfg->lowest_club_lead) ? club : -1; /* HEARTS-LEAD-3 */
        int leader = hand[0] >> club & 1 ? 0 : 1, broken = 0;
        for (int trick = 0; trick < cfg->tricks_per_hand; trick++) {
            int lead = -1;
            for (int half = 0; half < 2; half++) {
                int p = half ? 1 - leader : leader;
                uint32_t h = hand[p], legal = h;
                if (!half) {
                    if (trick == 0 && forced >= 0) legal &= 1u << forced;
                    if (!broken && (h & H_NONHEARTS)) legal &= H_NONHEARTS;   /* HEARTS-BREAK-1 */
                } else {
                    uint32_t follow = 0x7Fu << (7 * (lead / 7));
                    if (h & follow) legal &= follow;                          /* HEARTS-FOLLOW-1 */
                }
                if (trick == 0 && cfg->first_no_hearts && (h & H_NONHEARTS)) legal &= H_NONHEARTS; /* HEARTS-FIRST-1 */
                if (!legal) return -2;
                int card = cfg->kinds[p] ? greedy_choice(legal, lead)
                                         : nth_bit(legal, (int)sm_below(&prng[p], (u64)popcount28(legal)));
                if (moves) { *moves++ = (u8)p; *moves++ = (u8)card; }
                hand[p] &= ~(1u << card);
                if (card / 7 == 2 || (half && cfg->break_void && card / 7 != lead / 7)
                    || (card == H_QS && cfg->queen_breaks)) broken = 1; /* HEARTS-BREAK-2, HEARTS-QUEEN-2 */
                if (!half) { lead = card; continue; }
                /* HEARTS-TRICK-1/2: same suit, the higher wins; else a heart (trump) wins */
                int follower_wins = card / 7 == lead / 7 ? card > lead : card / 7 == 2;
                leader = follower_wins ? p : leader;
                taken[leader] |= (1u << lead) | (1u << card);
            }
        }
        /* HEARTS-SCORE-1, HEARTS-MOON-1/2 */
        uint32_t in_play = H_POINTS & ~dead;
        int hs[2];
        if ((in_play & taken[0]) == in_play || (in_play & taken[1]) == in_play) {
            int shooter = (in_play & taken[0]) == in_play ? 0 : 1;
            hs[shooter] = cfg->moon_shooter_points;
            hs[1 - shooter] = cfg->moon_in_play ? h_points(cfg, in_play) : cfg->moon_other_points;
            moons[shooter]++;
        } else { hs[0] = h_points(cfg, taken[0]); hs[1] = h_points(cfg, taken[1]); }
        if (hand_scores) { hand_scores[2 * hands] = hs[0]; hand_scores[2 * hands + 1] = hs[1]; }
        if (pair_tally) pair_tally[hs[0] * cfg->tally_dim + hs[1]]++;
        hands++;
        int prev0 = scores[0], prev1 = scores[1], t = cfg->target;
        scores[0] += hs[0]; scores[1] += hs[1];
        int a = scores[0], b = scores[1], term = -1, winner = -1;   /* HEARTS-MATCH-1/2/3 */
        if (a >= t || b >= t) {
            if (a < t || b < t) { term = 0; winner = a < t ? 0 : 1; }
            else if (a != b) { term = (prev0 == prev1 && prev0 >= t) ? 2 : 1; winner = a < b ? 0 : 1; }
        }
        if (term >= 0) {
            out[0] = hands; out[1] = term; out[2] = winner; out[3] = a; out[4] = b;
            out[5] = moons[0]; out[6] = moons[1];
            return 0;
        }
        dealer = 1 - dealer; /* HEARTS-DEAL-1 */
    }
}

/* Matches seeds seed0 .. seed0 + count - 1, random players seeded seed * 2 + 1 and seed * 2 + 2
 * (as `cardcanon play hearts`). out: 8 numbers per match; pair_tally: tally_dim x tally_dim counts. */
int hearts_batch(const HeartsCfg *cfg, u64 seed0, i64 count, i64 *out, i64 *pair_tally) {
    for (i64 k = 0; k < count; k++) {
        u64 s = seed0 + (u64)k;
        int rc = hearts_match(cfg, s, s * 2 + 1, s * 2 + 2, 1 << 20, out + 8 * k, 0, 0, pair_tally);
        if (rc) return rc;
    }
    return 0;
}

/* Benchmark loop: `matches` matches of random play; returns the number of plays made. */
i64 hearts_bench(const HeartsCfg *cfg, u64 seed0, i64 matches, i64 *hands_out) {
    i64 out[8], plays = 0, hands = 0;
    for (i64 k = 0; k < matches; k++) {
        u64 s = seed0 + (u64)k;
        hearts_match(cfg, s, s * 2 + 1, s * 2 + 2, 1 << 20, out, 0, 0, 0);
        plays += 26 * out[0]; hands += out[0];
    }
    if (hands_out) *hands_out = hands;
    return plays;
}

/* ============================ Step by step (the environments) ==============================
 * One game held in a struct, moved one action at a time, with the chance moves that follow made
 * at once, and the observation vectors of cardcanon/envs/hearts_v0.py and snap_v0.py. */
#define H_OBS (7 * 28 + 6)

typedef struct {
    u64 rng;                                     /* the episode's stream: dealer, shuffles */
    int dealer, to_move, lead, broken, tricks, over, winner, hands, forced;
    int scores[2];
    uint32_t hand[2], taken[2], dead, played[2], last_trick;
    u8 order[28];                                /* the last deal, top card first */
    int dealt_outside;                           /* 1: each deal is given (hearts_game_deal_checked), not drawn */
} HeartsGame;

static void hg_deal_order(const HeartsCfg *cfg, HeartsGame *g) {   /* HEARTS-DEAL-2, HEARTS-LEAD-1/2/3 */
    int first = 1 - g->dealer, dealt = 2 * cfg->hand_size;
    g->hand[0] = g->hand[1] = g->taken[0] = g->taken[1] = g->played[0] = g->played[1] = 0;
    for (int p = 1; p <= dealt; p++) g->hand[p % 2 ? first : g->dealer] |= 1u << g->order[p];
    g->dead = 1u << g->order[0];
    for (int p = dealt + 1; p < 28; p++) g->dead |= 1u << g->order[p];
    int club = (~g->dead & 0x7Fu) ? __builtin_ctz(~g->dead & 0x7Fu) : 0;
    g->forced = (club == 0 || cfg->lowest_club_lead) ? club : -1;
    g->to_move = g->hand[0] >> club & 1 ? 0 : 1;
    g->lead = -1; g->broken = 0; g->tricks = 0; g->last_trick = 0; g->hands++;
}

static void hg_deal(const HeartsCfg *cfg, HeartsGame *g) {   /* the deal drawn from the game's stream */
    for (int i = 0; i < 28; i++) g->order[i] = (u8)i;
    sm_shuffle(&g->rng, g->order, 28);
    hg_deal_order(cfg, g);
}

static void hg_reset(const HeartsCfg *cfg, HeartsGame *g, u64 seed) {
    memset(g, 0, sizeof *g);
    g->rng = seed; g->winner = -1;
    g->dealer = (int)sm_below(&g->rng, 2);       /* HEARTS-DEAL-1 */
    hg_deal(cfg, g);
}

static uint32_t hg_legal(const HeartsCfg *cfg, const HeartsGame *g) {
    if (g->over || g->to_move < 0) return 0;
    uint32_t h = g->hand[g->to_move], legal = h;
    if (g->lead < 0) {
        if (g->tricks == 0 && g->forced >= 0) legal &= 1u << g->forced;          /* HEARTS-LEAD-1/3 */
        if (!g->broken && (h & H_NONHEARTS)) legal &= H_NONHEARTS;               /* HEARTS-BREAK-1 */
    } else {
        uint32_t follow = 0x7Fu << (7 * (g->lead / 7));
        if (h & follow) legal &= follow;                                         /* HEARTS-FOLLOW-1 */
    }
    if (g->tricks == 0 && cfg->first_no_hearts && (h & H_NONHEARTS)) legal &= H_NONHEARTS; /* HEARTS-FIRST-1 */
    return legal;
}

/* Play `card` for the player to move. Returns -1 if it is not a legal play, 0 if play goes on in
 * the hand, 2 if a new hand was dealt, 3 if the next hand waits for its deal (dealt_outside; no
 * one to move), 1 if the match is over. */
static int hg_step(const HeartsCfg *cfg, HeartsGame *g, int card) {
    if (card < 0 || card >= 28 || !(hg_legal(cfg, g) >> card & 1)) return -1;
    int p = g->to_move, half = g->lead >= 0;
    g->hand[p] &= ~(1u << card); g->played[p] |= 1u << card;
    if (card / 7 == 2 || (half && cfg->break_void && card / 7 != g->lead / 7) || (card == H_QS && cfg->queen_breaks))
        g->broken = 1;                                                         /* HEARTS-BREAK-2, HEARTS-QUEEN-2 */
    if (!half) { g->lead = card; g->to_move = 1 - p; return 0; }
    int lead = g->lead, leader = 1 - p;
    int follower_wins = card / 7 == lead / 7 ? card > lead : card / 7 == 2;   /* HEARTS-TRICK-1 */
    int winner = follower_wins ? p : leader;
    g->taken[winner] |= (1u << lead) | (1u << card);
    g->last_trick = (1u << lead) | (1u << card);
    g->lead = -1; g->to_move = winner; g->tricks++;                            /* HEARTS-TRICK-2 */
    if (g->tricks < cfg->tricks_per_hand) return 0;
    uint32_t in_play = H_POINTS & ~g->dead;                                    /* HEARTS-SCORE-1, MOON-1/2 */
    int hs[2];
    if ((in_play & g->taken[0]) == in_play || (in_play & g->taken[1]) == in_play) {
        int shooter = (in_play & g->taken[0]) == in_play ? 0 : 1;
        hs[shooter] = cfg->moon_shooter_points;
        hs[1 - shooter] = cfg->moon_in_play ? h_points(cfg, in_play) : cfg->moon_other_points;
    } else { hs[0] = h_points(cfg, g->taken[0]); hs[1] = h_points(cfg, g->taken[1]); }
    g->scores[0] += hs[0]; g->scores[1] += hs[1];
    int a = g->scores[0], b = g->scores[1], t = cfg->target;                   /* HEARTS-MATCH-1/2/3 */
    if ((a >= t || b >= t) && (a < t || b < t || a != b)) {
        g->winner = (a < t || b < t) ? (a < t ? 0 : 1) : (a < b ? 0 : 1);
        g->over = 1; g->to_move = -1;
        return 1;
    }
    g->dealer = 1 - g->dealer;                                                  /* HEARTS-DEAL-1 */
    if (g->dealt_outside) { g->to_move = -1; return 3; }
    hg_deal(cfg, g);
    return 2;
}

static inline void set_cards(float *row, uint32_t m) { for (; m; m &= m - 1) row[__builtin_ctz(m)] = 1.0f; }

/* The observation vector of `seat` (hearts_v0.OBSERVATION) and his action mask (28 bytes). */
static void hg_observe(const HeartsCfg *cfg, const HeartsGame *g, int seat, float *obs, u8 *mask) {
    memset(obs, 0, H_OBS * sizeof(float));
    set_cards(obs, g->hand[seat]);
    if (g->lead >= 0) obs[28 + g->lead] = 1.0f;
    set_cards(obs + 56, g->played[seat]); set_cards(obs + 84, g->played[1 - seat]);
    set_cards(obs + 112, g->taken[seat]); set_cards(obs + 140, g->taken[1 - seat]);
    set_cards(obs + 168, g->last_trick);
    float *f = obs + 196;
    f[0] = (float)g->broken; f[1] = (float)(g->to_move == seat && g->lead < 0);
    f[2] = (float)(g->tricks == 0 && g->to_move >= 0); f[3] = (float)(g->dealer == seat);
    f[4] = (float)g->scores[seat]; f[5] = (float)g->scores[1 - seat];
    if (mask) {
        uint32_t legal = g->to_move == seat ? hg_legal(cfg, g) : 0;
        for (int c = 0; c < 28; c++) mask[c] = (u8)(legal >> c & 1);
    }
}

/* Many games at once: each slot plays actions[i] for its player to move; a finished match is
 * scored (rewards: +1 the winner, -1 the loser) and the slot starts its next match, seeded by the
 * next number of its own SplitMix64 stream `streams[i]` (as EpisodeSeeds). Then the observation and
 * mask of the player to move of every slot. Returns 0, or 1 + i for the first slot i whose
 * action is illegal (then nothing is played). */
static i64 hg_vec_step(const HeartsCfg *cfg, HeartsGame *games, i64 n, const int32_t *actions, u64 *streams,
                       float *obs, u8 *masks, int32_t *to_move, float *rewards, u8 *dones) {
    for (i64 i = 0; i < n; i++) {
        int a = actions[i];
        if (a < 0 || a >= 28 || !(hg_legal(cfg, &games[i]) >> a & 1)) return 1 + i;
    }
    for (i64 i = 0; i < n; i++) {
        HeartsGame *g = &games[i];
        int rc = hg_step(cfg, g, actions[i]);
        rewards[2 * i] = rewards[2 * i + 1] = 0.0f; dones[i] = 0;
        if (rc == 1) {
            rewards[2 * i + g->winner] = 1.0f; rewards[2 * i + 1 - g->winner] = -1.0f; dones[i] = 1;
            hg_reset(cfg, g, sm_next(&streams[i]));
        }
        to_move[i] = g->to_move;
        hg_observe(cfg, g, g->to_move, obs + H_OBS * i, masks + 28 * i);
    }
    return 0;
}

static void hg_vec_reset(const HeartsCfg *cfg, HeartsGame *games, i64 n, u64 seed0, u64 *streams, float *obs,
                         u8 *masks, int32_t *to_move) {
    for (i64 i = 0; i < n; i++) {
        streams[i] = seed0 + (u64)i;
        hg_reset(cfg, &games[i], seed0 + (u64)i);
        to_move[i] = games[i].to_move;
        hg_observe(cfg, &games[i], games[i].to_move, obs + H_OBS * i, masks + 28 * i);
    }
}

/* ---- Snap ---- */
typedef struct {
    SnapState s;
    SnapFlip fl;
    u64 rng;
    int phase, dealer;                           /* phase: 0 flip, 1 call window, 2 over */
    u8 order[52];                                /* the deal, top card first */
} SnapGame;
enum { SG_FLIP = 0, SG_CALL = 1, SG_OVER = 2 };

static void sg_deal_order(const SnapCfg *cfg, SnapGame *g) {   /* the deal in g->order, by g->dealer */
    snap_deal(cfg, &g->s, g->dealer, g->order);
    g->phase = g->s.over ? SG_OVER : SG_FLIP;
}

static void sg_reset(const SnapCfg *cfg, SnapGame *g, u64 seed) {
    memset(g, 0, sizeof *g);
    g->rng = seed;
    g->dealer = (int)sm_below(&g->rng, (u64)cfg->players);  /* SNAP-DEAL-1 */
    memcpy(g->order, cfg->deck, cfg->ncards);
    sm_shuffle(&g->rng, g->order, cfg->ncards);
    sg_deal_order(cfg, g);
}

static void sg_flip(const SnapCfg *cfg, SnapGame *g) { snap_flip(cfg, &g->s, &g->fl); g->phase = SG_CALL; }

/* Settle the call window as envs/snap_race.py call_event: calls[seat] is -1 (no call) or a call kind.
 * ev[0..2]: event (EV_NOCALL/EV_CALL/EV_TIE), caller or tie mask, kind. */
static void sg_settle(const SnapCfg *cfg, SnapGame *g, const int8_t *calls, int32_t *ev) {
    SnapState *s = &g->s;
    const SnapFlip *fl = &g->fl;
    int n = cfg->players, f = fl->f, callers[12], nc = 0, right[12], nr = 0;
    for (int k = 0, j = f; k < n; k++, j = j + 1 == n ? 0 : j + 1)
        if (holds(s, j) && calls[j] >= 0) callers[nc++] = j;
    int event = EV_NOCALL, who = 0, kind = 0;
    for (int i = 0; i < nc; i++) if (fl->correct[calls[callers[i]]]) right[nr++] = callers[i];
    if (nc && !nr) { event = EV_CALL; who = callers[0]; kind = calls[who]; }   /* wrong calls only */
    else if (nr) {
        event = EV_CALL; who = right[0];                                       /* SNAP-POLICY-2 */
        if (cfg->policy == POL_OWNER && fl->nm) {                              /* SNAP-POLICY-3 */
            int m = fl->matched[0], c = calls[m];
            if (holds(s, m) && (c == K_SNAP || c == K_HAND)) who = m;
        }
        kind = calls[who];
        if (cfg->policy == POL_TIES && nr >= 2 && !cfg->index_card
            && (sm_next(&g->rng) < cfg->rate_threshold || cfg->rate_always)) { /* SNAP-POLICY-4 */
            u8 pool[12]; int m = 0;
            for (int i = 0; i < n; i++) for (int r = 0; r < nr; r++) if (right[r] == i) pool[m++] = (u8)i;
            int size = 2 + (int)sm_below(&g->rng, (u64)(nr - 1));
            sm_shuffle(&g->rng, pool, nr);
            who = 0;
            for (int i = 0; i < size; i++) who |= 1 << pool[i];
            event = EV_TIE;
        }
    }
    ev[0] = event; ev[1] = who; ev[2] = kind;
    int over = snap_resolve(cfg, s, fl, event, event == EV_CALL ? who : f, kind);
    g->phase = over ? SG_OVER : SG_FLIP;
}

/* The observation vector of `seat` (snap_v0.observation_parts): seats from the observer, clockwise. */
static void sg_observe(const SnapCfg *cfg, const SnapGame *g, int seat, float *obs) {
    const SnapState *s = &g->s;
    int n = cfg->players, len = 2 + 5 * n + 52 * n + 1 + 52;
    memset(obs, 0, (size_t)len * sizeof(float));
    obs[0] = (float)(g->phase == SG_FLIP); obs[1] = (float)(g->phase == SG_CALL);
    float *turn = obs + 2, *dealer = turn + n, *in = dealer + n, *downs = in + n, *ups = downs + n, *tops = ups + n;
    for (int k = 0, j = seat; k < n; k++, j = j + 1 == n ? 0 : j + 1) {
        if (g->phase != SG_OVER && s->turn == j) turn[k] = 1.0f;
        if (g->dealer == j) dealer[k] = 1.0f;
        in[k] = (float)holds(s, j); downs[k] = (float)s->dn[j]; ups[k] = (float)s->un[j];
        if (s->un[j]) tops[52 * k + s->uc[j][s->un[j] - 1]] = 1.0f;
    }
    float *pot = tops + 52 * n;
    pot[0] = (float)s->pn;
    if (s->pn) pot[1 + s->pc[s->pn - 1]] = 1.0f;
}

/* The position before a flip (SNAP-END-4), as bytes: turn, pot, then every seat's piles. */
static i64 sg_position(const SnapCfg *cfg, const SnapGame *g, u8 *out) {
    const SnapState *s = &g->s;
    i64 k = 0;
    out[k++] = (u8)s->turn; out[k++] = s->pn;
    memcpy(out + k, s->pc, s->pn); k += s->pn;
    for (int i = 0; i < cfg->players; i++) {
        out[k++] = s->dn[i];
        for (int c = 0; c < s->dn[i]; c++) out[k++] = s->dc[i][(s->dh[i] + c) & (RING - 1)];
        out[k++] = s->un[i];
        memcpy(out + k, s->uc[i], s->un[i]); k += s->un[i];
    }
    return k;
}

/* What Python reads after every call: phase, turn, holders (bit mask), dealer, termination code
 * (as snap_outcome) and winner when over, pot size. */
static void sg_view(const SnapCfg *cfg, const SnapGame *g, int32_t *view) {
    const SnapState *s = &g->s;
    int mask = 0;
    for (int i = 0; i < cfg->players; i++) if (holds(s, i)) mask |= 1 << i;
    view[0] = g->phase; view[1] = s->turn; view[2] = mask; view[3] = g->dealer; view[4] = -1; view[5] = -1;
    view[6] = s->pn;
    if (g->phase == SG_OVER) { i64 out[8]; snap_outcome(cfg, s, out); view[4] = (int32_t)out[1]; view[5] = (int32_t)out[2]; }
}

/* ============================ Checked entry points (ctypes) ================================
 * The only functions Python calls (cardcanon/engine/abi.py declares their argtypes/restype).
 * Each takes the size of the config struct it was given and the length of every buffer, checks
 * them, and returns a negative code instead of reading or writing out of bounds:
 * E_ABI the struct size differs (a stale library), E_CONFIG a config the kernel cannot play,
 * E_BUFFER a buffer shorter than the call needs. */
enum { E_ABI = -10, E_CONFIG = -11, E_BUFFER = -12 };

static int snap_cfg_ok(const SnapCfg *cfg, i64 cfg_size) {
    if (cfg_size != (i64)sizeof(SnapCfg)) return E_ABI;
    if (cfg->players < 2 || cfg->players > 12 || cfg->ncards < 1 || cfg->ncards > 52) return E_CONFIG;
    if (cfg->policy < POL_FLIPPER || cfg->policy > POL_ERRORS) return E_CONFIG;
    for (int i = 0; i < cfg->ncards; i++) if (cfg->deck[i] >= 52) return E_CONFIG;
    return 0;
}

int snap_play_checked(const SnapCfg *cfg, i64 cfg_size, u64 seed, int dealer, const u8 *order, i64 order_len,
                      i64 cap, i64 *out, i64 out_len, SnapMove *moves, i64 moves_len) {
    int rc = snap_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (cap < 0 || (order && (dealer < 0 || dealer >= cfg->players))) return E_CONFIG;
    if (out_len < 8 || (order && order_len < cfg->ncards)) return E_BUFFER;
    if (order) for (int i = 0; i < cfg->ncards; i++) if (order[i] >= 52) return E_CONFIG;
    if (moves) { /* the flips this call will record must fit */
        snap_play(cfg, seed, dealer, order, cap, out, 0);
        if (out[3] > moves_len) return E_BUFFER;
    }
    return snap_play(cfg, seed, dealer, order, cap, out, moves);
}

int snap_sample_deal_checked(const SnapCfg *cfg, i64 cfg_size, u64 seed, u8 *order, i64 order_len) {
    int rc = snap_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (order_len < cfg->ncards) return E_BUFFER;
    return snap_sample_deal(cfg, seed, order);
}

int snap_batch_checked(const SnapCfg *cfg, i64 cfg_size, u64 seed0, i64 count, i64 cap, i64 *out, i64 out_len) {
    int rc = snap_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (count < 0 || cap < 0) return E_CONFIG;
    if (out_len / 8 < count) return E_BUFFER;
    return snap_batch(cfg, seed0, count, cap, out);
}

i64 snap_enumerate_checked(const SnapCfg *cfg, i64 cfg_size, i64 cap, i64 *tally, i64 tally_len, i64 *flips_hist,
                           i64 hist_len) {
    int rc = snap_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (cap < 0 || (cfg->policy != POL_FLIPPER && cfg->policy != POL_OWNER)) return E_CONFIG;
    if (tally_len < 9 || hist_len < 1) return E_BUFFER;
    return snap_enumerate(cfg, cap, tally, flips_hist, hist_len);
}

#define H_TALLY ((i64)cfg->tally_dim * cfg->tally_dim)
#define H_MAX_POINTS (1 << 12)
static int hearts_cfg_ok(const HeartsCfg *cfg, i64 cfg_size) {
    if (cfg_size != (i64)sizeof(HeartsCfg)) return E_ABI;
    if (cfg->target < 1 || cfg->target >= 1 << 24) return E_CONFIG;
    if ((cfg->kinds[0] | cfg->kinds[1]) & ~1) return E_CONFIG;
    /* the deck is 28 cards, 7 per suit: hands of 11 to 13 cards leave 6 to 2 dead, so a club is always
     * live to lead (HEARTS-LEAD-1/2; with fewer, every club can be dead and no rule names the leader);
     * one trick per card */
    if (cfg->hand_size < 11 || cfg->hand_size > 13 || cfg->tricks_per_hand != cfg->hand_size) return E_CONFIG;
    int pts[4] = {cfg->queen_points, cfg->heart_points, cfg->moon_shooter_points, cfg->moon_other_points};
    for (int i = 0; i < 4; i++) if (pts[i] < 0 || pts[i] > H_MAX_POINTS) return E_CONFIG;
    int most = 7 * cfg->heart_points + cfg->queen_points;
    if (cfg->moon_other_points > most) most = cfg->moon_other_points;
    if (cfg->moon_shooter_points > most) most = cfg->moon_shooter_points;
    if (cfg->tally_dim != most + 1) return E_CONFIG;
    return 0;
}

int hearts_match_checked(const HeartsCfg *cfg, i64 cfg_size, u64 seed, u64 seed_p0, u64 seed_p1, i64 max_hands,
                         i64 *out, i64 out_len, int32_t *hand_scores, i64 scores_len, u8 *moves, i64 moves_len,
                         i64 *pair_tally, i64 tally_len) {
    int rc = hearts_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (max_hands < 1 || max_hands > (1 << 20)) return E_CONFIG;
    if (out_len < 8 || (hand_scores && scores_len / 2 < max_hands)
        || (moves && (moves_len - 1) / 80 < max_hands) || (pair_tally && tally_len < H_TALLY)) return E_BUFFER;
    return hearts_match(cfg, seed, seed_p0, seed_p1, max_hands, out, hand_scores, moves, pair_tally);
}

int hearts_batch_checked(const HeartsCfg *cfg, i64 cfg_size, u64 seed0, i64 count, i64 *out, i64 out_len,
                         i64 *pair_tally, i64 tally_len) {
    int rc = hearts_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (count < 0) return E_CONFIG;
    if (out_len / 8 < count || tally_len < H_TALLY) return E_BUFFER;
    return hearts_batch(cfg, seed0, count, out, pair_tally);
}

i64 hearts_bench_checked(const HeartsCfg *cfg, i64 cfg_size, u64 seed0, i64 matches, i64 *hands_out) {
    int rc = hearts_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (matches < 0) return E_CONFIG;
    return hearts_bench(cfg, seed0, matches, hands_out);
}

/* ---- step by step: the checked entry points ---- */
i64 hearts_game_size(void) { return (i64)sizeof(HeartsGame); }
i64 snap_game_size(void) { return (i64)sizeof(SnapGame); }

int hearts_game_reset_checked(const HeartsCfg *cfg, i64 cfg_size, HeartsGame *g, i64 g_size, u64 seed) {
    int rc = hearts_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (g_size != (i64)sizeof(HeartsGame)) return E_ABI;
    hg_reset(cfg, g, seed);
    return 0;
}

/* A match whose deals are given (OpenSpiel deals card by card): nothing dealt yet, `dealer` the
 * first dealer (-1: not chosen yet). Each hand then waits for hearts_game_deal_checked. */
int hearts_game_start_checked(const HeartsCfg *cfg, i64 cfg_size, HeartsGame *g, i64 g_size, int dealer) {
    int rc = hearts_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (g_size != (i64)sizeof(HeartsGame)) return E_ABI;
    if (dealer < -1 || dealer > 1) return E_CONFIG;
    memset(g, 0, sizeof *g);
    g->dealt_outside = 1; g->dealer = dealer; g->to_move = -1; g->winner = -1; g->lead = -1;
    return 0;
}

/* Deal `order` (deck indices, top card first: every card once) to a game waiting for its deal. */
int hearts_game_deal_checked(const HeartsCfg *cfg, i64 cfg_size, HeartsGame *g, i64 g_size, const u8 *order,
                             i64 order_len) {
    int rc = hearts_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (g_size != (i64)sizeof(HeartsGame)) return E_ABI;
    if (order_len < 28) return E_BUFFER;
    if (!g->dealt_outside || g->over || g->to_move >= 0 || g->dealer < 0) return E_CONFIG;
    uint32_t seen = 0;
    for (int i = 0; i < 28; i++) { if (order[i] >= 28) return E_CONFIG; seen |= 1u << order[i]; }
    if (seen != H_FULL) return E_CONFIG;
    memcpy(g->order, order, 28);
    hg_deal_order(cfg, g);
    return 0;
}

/* The position: hand 0, hand 1, dead cards, cards taken by 0 and 1 (deck masks), the card led (-1
 * none), hearts broken, tricks played, to move (-1 none), over, winner, dealer, hand number,
 * score 0, score 1, the legal cards of the player to move (a mask). */
#define H_POSITION 16
int hearts_game_position_checked(const HeartsCfg *cfg, i64 cfg_size, const HeartsGame *g, i64 g_size, int32_t *pos,
                                 i64 pos_len) {
    int rc = hearts_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (g_size != (i64)sizeof(HeartsGame)) return E_ABI;
    if (pos_len < H_POSITION) return E_BUFFER;
    int32_t v[H_POSITION] = {(int32_t)g->hand[0], (int32_t)g->hand[1], (int32_t)(g->hands ? g->dead : 0),
                             (int32_t)g->taken[0], (int32_t)g->taken[1], g->lead, g->broken, g->tricks, g->to_move,
                             g->over, g->winner, g->dealer, g->hands, g->scores[0], g->scores[1],
                             (int32_t)hg_legal(cfg, g)};
    memcpy(pos, v, sizeof v);
    return 0;
}

/* view: to_move, over, winner, dealer, hand number, score 0, score 1, the step's code (see hg_step) */
int hearts_game_step_checked(const HeartsCfg *cfg, i64 cfg_size, HeartsGame *g, i64 g_size, int card,
                             int32_t *view, i64 view_len) {
    int rc = hearts_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (g_size != (i64)sizeof(HeartsGame)) return E_ABI;
    if (view_len < 8) return E_BUFFER;
    rc = card == -1 ? 0 : hg_step(cfg, g, card);    /* -1: only read the view */
    view[0] = g->to_move; view[1] = g->over; view[2] = g->winner; view[3] = g->dealer; view[4] = g->hands;
    view[5] = g->scores[0]; view[6] = g->scores[1]; view[7] = rc;
    return rc < 0 ? rc : 0;
}

int hearts_game_observe_checked(const HeartsCfg *cfg, i64 cfg_size, const HeartsGame *g, i64 g_size, int seat,
                                float *obs, i64 obs_len, u8 *mask, i64 mask_len, u8 *order, i64 order_len) {
    int rc = hearts_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (g_size != (i64)sizeof(HeartsGame)) return E_ABI;
    if (seat < 0 || seat > 1) return E_CONFIG;
    if (obs_len < H_OBS || (mask && mask_len < 28) || (order && order_len < 28)) return E_BUFFER;
    hg_observe(cfg, g, seat, obs, mask);
    if (order) memcpy(order, g->order, 28);
    return 0;
}

i64 hearts_vec_reset_checked(const HeartsCfg *cfg, i64 cfg_size, HeartsGame *games, i64 games_size, i64 n,
                             u64 seed0, u64 *streams, float *obs, u8 *masks, int32_t *to_move, i64 buf_len) {
    int rc = hearts_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (n < 0) return E_CONFIG;
    if (games_size / (i64)sizeof(HeartsGame) < n || buf_len < n) return E_BUFFER;
    hg_vec_reset(cfg, games, n, seed0, streams, obs, masks, to_move);
    return 0;
}

/* buf_len: the number of slots every buffer holds (obs H_OBS floats, masks 28 bytes, rewards 2 per slot) */
i64 hearts_vec_step_checked(const HeartsCfg *cfg, i64 cfg_size, HeartsGame *games, i64 games_size, i64 n,
                            const int32_t *actions, u64 *streams, float *obs, u8 *masks, int32_t *to_move,
                            float *rewards, u8 *dones, i64 buf_len) {
    int rc = hearts_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (n < 0) return E_CONFIG;
    if (games_size / (i64)sizeof(HeartsGame) < n || buf_len < n) return E_BUFFER;
    return hg_vec_step(cfg, games, n, actions, streams, obs, masks, to_move, rewards, dones);
}

#define SG_VIEW 7
int snap_game_reset_checked(const SnapCfg *cfg, i64 cfg_size, SnapGame *g, i64 g_size, u64 seed, int32_t *view,
                            i64 view_len, u8 *order, i64 order_len) {
    int rc = snap_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (g_size != (i64)sizeof(SnapGame)) return E_ABI;
    if (view_len < SG_VIEW || order_len < cfg->ncards) return E_BUFFER;
    sg_reset(cfg, g, seed);
    memcpy(order, g->order, cfg->ncards);
    sg_view(cfg, g, view);
    return 0;
}

/* Deal `order` (cards of the config's deck, each once, top card first) from `dealer` (OpenSpiel deals
 * card by card); the game then steps as one reset from a seed. */
int snap_game_deal_checked(const SnapCfg *cfg, i64 cfg_size, SnapGame *g, i64 g_size, int dealer, const u8 *order,
                           i64 order_len, int32_t *view, i64 view_len) {
    int rc = snap_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (g_size != (i64)sizeof(SnapGame)) return E_ABI;
    if (view_len < SG_VIEW || order_len < cfg->ncards) return E_BUFFER;
    if (dealer < 0 || dealer >= cfg->players) return E_CONFIG;
    u64 deck = 0, seen = 0;
    for (int i = 0; i < cfg->ncards; i++) deck |= 1ULL << cfg->deck[i];
    for (int i = 0; i < cfg->ncards; i++) {
        if (order[i] >= 52 || !(deck >> order[i] & 1) || (seen >> order[i] & 1)) return E_CONFIG;
        seen |= 1ULL << order[i];
    }
    memset(g, 0, sizeof *g);
    g->dealer = dealer;
    memcpy(g->order, order, cfg->ncards);
    sg_deal_order(cfg, g);
    sg_view(cfg, g, view);
    return 0;
}

/* Close the open call window with one call event: given == NULL, the one the config's policy makes
 * (as snap_play plays it; a random policy draws from the game's stream); else given[0..2]: event,
 * caller (a call) or the tied seats (a mask of two or more players in the game), kind.
 * ev: the event applied, as snap_game_step_checked writes it. */
int snap_game_event_checked(const SnapCfg *cfg, i64 cfg_size, SnapGame *g, i64 g_size, const int32_t *given,
                            i64 given_len, int32_t *ev, i64 ev_len, int32_t *view, i64 view_len) {
    int rc = snap_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (g_size != (i64)sizeof(SnapGame)) return E_ABI;
    if (view_len < SG_VIEW || ev_len < 3 || (given && given_len < 3)) return E_BUFFER;
    if (g->phase != SG_CALL) return E_CONFIG;
    int e[4];
    if (!given) snap_policy_event(cfg, &g->s, &g->fl, &g->rng, e);
    else {
        int n = cfg->players, holders = 0, kind = given[2];
        for (int i = 0; i < n; i++) holders |= holds(&g->s, i) << i;
        e[0] = given[0]; e[1] = given[0] == EV_TIE ? g->fl.f : given[1]; e[2] = kind; e[3] = given[0] == EV_TIE ? given[1] : 0;
        if (e[0] < EV_NOCALL || e[0] > EV_TIE) return E_CONFIG;
        if (e[0] != EV_NOCALL && (kind < K_SNAP || kind > K_HAND || cfg->index_card != (kind == K_HAND))) return E_CONFIG;
        if (e[0] == EV_CALL && (e[1] < 0 || e[1] >= n || !(holders >> e[1] & 1))) return E_CONFIG;
        if (e[0] == EV_TIE && (e[3] & ~holders || !(e[3] & (e[3] - 1)))) return E_CONFIG;
    }
    ev[0] = e[0]; ev[1] = e[0] == EV_TIE ? e[3] : e[0] == EV_CALL ? e[1] : 0; ev[2] = e[0] == EV_NOCALL ? 0 : e[2];
    int over = snap_resolve(cfg, &g->s, &g->fl, e[0], e[0] == EV_CALL ? e[1] : g->fl.f, e[2]);
    g->phase = over ? SG_OVER : SG_FLIP;
    sg_view(cfg, g, view);
    return 0;
}

/* The kinds of call that are correct in the open call window (SNAP-MATCH-1/2): bit K_SNAP, K_POT, K_HAND. */
int snap_game_correct_checked(const SnapCfg *cfg, i64 cfg_size, const SnapGame *g, i64 g_size) {
    int rc = snap_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (g_size != (i64)sizeof(SnapGame)) return E_ABI;
    if (g->phase != SG_CALL) return E_CONFIG;
    return g->fl.correct[K_SNAP] << K_SNAP | g->fl.correct[K_POT] << K_POT | g->fl.correct[K_HAND] << K_HAND;
}

/* calls == NULL: the flip; else settle the open call window with calls[seat] (-1 none, else a kind) */
int snap_game_step_checked(const SnapCfg *cfg, i64 cfg_size, SnapGame *g, i64 g_size, const int8_t *calls,
                           i64 calls_len, int32_t *event, i64 event_len, int32_t *view, i64 view_len) {
    int rc = snap_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (g_size != (i64)sizeof(SnapGame)) return E_ABI;
    if (view_len < SG_VIEW || event_len < 3 || (calls && calls_len < cfg->players)) return E_BUFFER;
    if (g->phase != (calls ? SG_CALL : SG_FLIP)) return E_CONFIG;
    if (calls) {
        for (int i = 0; i < cfg->players; i++) {
            int c = calls[i];
            if (c < -1 || c > K_HAND || (c >= 0 && cfg->index_card != (c == K_HAND))) return E_CONFIG;
        }
        sg_settle(cfg, g, calls, event);
    } else sg_flip(cfg, g);
    sg_view(cfg, g, view);
    return 0;
}

int snap_game_observe_checked(const SnapCfg *cfg, i64 cfg_size, const SnapGame *g, i64 g_size, int seat, float *obs,
                              i64 obs_len, u8 *position, i64 position_len, i64 *position_used) {
    int rc = snap_cfg_ok(cfg, cfg_size);
    if (rc) return rc;
    if (g_size != (i64)sizeof(SnapGame)) return E_ABI;
    if (seat < 0 || seat >= cfg->players) return E_CONFIG;
    if ((obs && obs_len < 2 + 57 * cfg->players + 53) || (position && position_len < 2 + 2 * cfg->players + 52))
        return E_BUFFER;
    if (obs) sg_observe(cfg, g, seat, obs);
    if (position) *position_used = sg_position(cfg, g, position);
    return 0;
}

/* The SHA-256 of this file, set by the build (-DCARDCANON_KERNEL_SHA256="..."), so that a
 * library built from another version of the source is recognised and not used. */
#ifndef CARDCANON_KERNEL_SHA256
#define CARDCANON_KERNEL_SHA256 "unknown"
#endif
const char *cardcanon_kernel_source(void) { return CARDCANON_KERNEL_SHA256; }
