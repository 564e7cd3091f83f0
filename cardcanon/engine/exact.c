/* cardcanon exact Snap enumeration: every deal of a small deck, reduced by symmetry.
 *
 * Under SNAP-MATCH-1 only ranks matter, relabelling ranks gives an isomorphic game, and turning
 * the table (the dealer's seat) does too. So a deck of r ranks x s suits is enumerated as its
 * canonical rank sequences (ranks numbered in order of first appearance, dealer seat 0), each
 * standing for players * r! * (s!)^r equally likely deals. Sequences are in lexicographic order;
 * `exact_unrank` gives the sequence of an index, so a chunk of work is an index range.
 *
 * The play is the default rules under the two deterministic calling policies of
 * model/snap_policies.py (flipper-first, owner-first): no ties and no wrong calls, so no Snap
 * Pot and no penalties. Cards are distinct bytes (rank | occurrence << 4), so a repeated
 * position (SNAP-END-4) is a repeat of every card, as in the reference model. Repetition is
 * found by Brent's algorithm on the positions before each flip, then the exact cycle start by a
 * second pass, as kernel.c's snap_play (tests/test_exact.py binds the two).
 * Compiled and loaded by cardcanon/engine/exact.py; portable.h has the fallbacks of the compiler
 * builtins and extensions it uses. */
#include <stdint.h>
#include <string.h>
#include "portable.h"

typedef uint64_t u64;
typedef int64_t i64;
typedef uint8_t u8;

#define XR 32 /* ring size: decks of at most 32 cards */
#define XP 12 /* players */
#define XRANK(c) ((c) & 15)

typedef struct {
    u8 dc[XP][XR]; u8 dh[XP], dn[XP]; /* face-down: ring, top at dh, dn cards */
    u8 uc[XP][XR]; u8 un[XP];         /* face-up: stack, index 0 = bottom */
    int turn, over;
} XState;

/* ---- canonical rank sequences ------------------------------------------------------------ */
static u64 binom(int n, int k) { /* n <= 32: every step fits in 64 bits */
    u64 r = 1;
    for (int i = 1; i <= k; i++) r = r * (u64)(n - k + i) / (u64)i;
    return r;
}

/* Completions of a prefix: `left[v]` cards of each used rank v < k remain, the r - k unused ranks
 * (s cards each) must first appear in order: multinomial / (r - k)!. */
static wide completions(int r, int s, int k, const int *left) { /* at most 32! < 2^128 */
    wide m = wide_from(1); int tot = 0;
    for (int v = 0; v < k; v++) { tot += left[v]; m = wide_mul(m, binom(tot, left[v])); }
    for (int v = k; v < r; v++) { tot += s; m = wide_mul(m, binom(tot, s)); }
    for (int v = 2; v <= r - k; v++) m = wide_div(m, (uint32_t)v);
    return m;
}

/* The number of canonical sequences; 0 if it does not fit in 63 bits or the deck is too big. */
i64 exact_count(int r, int s) {
    if (r < 1 || s < 1 || r > 15 || r * s > XR || s > 15) return 0;
    int left[16] = {0};
    wide c = completions(r, s, 0, left);
    return wide_fits63(c) ? (i64)wide_low(c) : 0;
}

/* The canonical sequence of `index` (lexicographic order). Returns 0, or -1 if out of range. */
int exact_unrank(int r, int s, i64 index, u8 *seq) {
    int left[16], k = 0, n = r * s;
    if (index < 0) return -1;
    u64 idx = (u64)index;
    for (int v = 0; v < r; v++) left[v] = s;
    for (int pos = 0; pos < n; pos++) {
        int chosen = -1;
        for (int v = 0; v <= k && v < r; v++) {
            if (!left[v]) continue;
            left[v]--;
            int k2 = v == k ? k + 1 : k;
            wide c = completions(r, s, k2, left);
            if (!wide_fits63(c) || idx < wide_low(c)) { chosen = v; k = k2; break; }
            idx -= wide_low(c); left[v]++;
        }
        if (chosen < 0) return -1;
        seq[pos] = (u8)chosen;
    }
    return idx == 0 ? 0 : -1;
}

/* The next canonical sequence in lexicographic order; 0 if `seq` was the last. */
static int next_canonical(int r, int n, u8 *seq) {
    int cnt[16] = {0}, pm[XR + 1];
    pm[0] = -1;
    for (int i = 0; i < n; i++) pm[i + 1] = seq[i] > pm[i] ? seq[i] : pm[i];
    cnt[seq[n - 1]]++;
    for (int i = n - 2; i >= 0; i--) {
        int top = pm[i] + 1 < r - 1 ? pm[i] + 1 : r - 1;
        for (int v = seq[i] + 1; v <= top; v++) {
            if (!cnt[v]) continue;
            cnt[seq[i]]++; cnt[v]--; seq[i] = (u8)v;
            int p = i + 1;
            for (int w = 0; w < r; w++) while (cnt[w]--) seq[p++] = (u8)w;
            return 1;
        }
        cnt[seq[i]]++;
    }
    return 0;
}

/* ---- play (default rules, deterministic policies) ----------------------------------------- */
static inline int xholds(const XState *s, int i) { return s->dn[i] || s->un[i]; }

static inline CC_ALWAYS_INLINE void xnext(XState *s, int n, int after) { /* SNAP-END-1, SNAP-TURN-2, SNAP-OUT-1 */
    int holders = 0;
    for (int i = 0; i < n; i++) holders += xholds(s, i);
    if (holders <= 1) { s->over = 1; return; }
    for (int k = 1, j = after; k <= n; k++) { if (++j == n) j = 0; if (xholds(s, j)) { s->turn = j; return; } }
}

static void xdeal(XState *s, int n, int ncards, const u8 *seq) {
    /* SNAP-DEAL-2/3, dealer seat 0: one card at a time from seat 1; the last dealt is the top */
    int occ[16] = {0};
    u8 card[XR];
    for (int i = 0; i < ncards; i++) card[i] = (u8)(seq[i] | occ[seq[i]]++ << 4);
    for (int i = 0; i < n; i++) { s->dh[i] = 0; s->dn[i] = 0; s->un[i] = 0; }
    s->over = 0; s->turn = 0;
    for (int i = ncards - 1, p = ncards % n; i >= 0; i--) {  /* card i goes to seat (1 + i) mod n */
        s->dc[p][s->dn[p]++] = card[i];
        p = p ? p - 1 : n - 1;
    }
    xnext(s, n, 0); /* SNAP-TURN-1 */
}

static inline CC_ALWAYS_INLINE int xequal(const XState *a, const XState *b, int n) {
    if (a->turn != b->turn) return 0;
    for (int i = 0; i < n; i++) if (a->dn[i] != b->dn[i] || a->un[i] != b->un[i]) return 0;
    for (int i = 0; i < n; i++) {
        if (memcmp(a->uc[i], b->uc[i], a->un[i])) return 0;
        for (int k = 0; k < a->dn[i]; k++)
            if (a->dc[i][(a->dh[i] + k) & (XR - 1)] != b->dc[i][(b->dh[i] + k) & (XR - 1)]) return 0;
    }
    return 1;
}

static inline void xcopy(XState *to, const XState *from, int n) {
    for (int i = 0; i < n; i++) {
        memcpy(to->dc[i], from->dc[i], XR); memcpy(to->uc[i], from->uc[i], XR);
        to->dh[i] = from->dh[i]; to->dn[i] = from->dn[i]; to->un[i] = from->un[i];
    }
    to->turn = from->turn; to->over = from->over;
}

/* One flip and its call window (SNAP-FLIP-1/3, SNAP-MATCH-1/2, SNAP-CALL-1/4/5). owner = 1:
 * owner-first (the first matched seat clockwise calls first), else flipper-first. */
static inline CC_ALWAYS_INLINE int xstep(XState *s, int n, int owner) {
    int f = s->turn;
    if (!s->dn[f]) { memcpy(s->dc[f], s->uc[f], s->un[f]); s->dh[f] = 0; s->dn[f] = s->un[f]; s->un[f] = 0; }
    u8 card = s->dc[f][s->dh[f]]; s->dh[f] = (u8)(s->dh[f] + 1) & (XR - 1); s->dn[f]--;
    s->uc[f][s->un[f]++] = card;
    int rank = XRANK(card), matched[XP], nm = 0;
    for (int k = 1, j = f; k < n; k++) {
        if (++j == n) j = 0;
        if (s->un[j] && XRANK(s->uc[j][s->un[j] - 1]) == rank) matched[nm++] = j;
    }
    if (nm) {
        int w = owner ? matched[0] : f;
        for (int m = -1; m < nm; m++) {
            int j = m < 0 ? f : matched[m];
            for (int k = 0; k < s->un[j]; k++) { s->dc[w][(u8)(s->dh[w] + s->dn[w]) & (XR - 1)] = s->uc[j][k]; s->dn[w]++; }
            s->un[j] = 0;
        }
    }
    xnext(s, n, f);
    return s->over;
}

enum { X_ENDED = 0, X_ENDLESS = 1, X_CAPPED = 2 };

/* Decide one deal: returns the status; *flips = flips of an ended game, else the cycle start
 * (mu) and *lam the cycle length. Brent's algorithm, then the exact start. */
static inline CC_ALWAYS_INLINE int xdecide(const XState *x0, int n, int owner, int want_start, i64 cap,
                                                         i64 *flips, i64 *lam_out) {
    XState x, t;
    xcopy(&x, x0, n);
    if (x.over) { *flips = 0; return X_ENDED; }
    xcopy(&t, x0, n);
    i64 power = 1, lam = 1, steps = 1;
    int ended = xstep(&x, n, owner);
    while (!ended && !xequal(&x, &t, n)) {
        if (steps >= cap) { *flips = steps; return X_CAPPED; }
        if (power == lam) { xcopy(&t, &x, n); power *= 2; lam = 0; }
        ended = xstep(&x, n, owner); steps++; lam++;
    }
    if (ended) { *flips = steps; return X_ENDED; }
    if (!want_start) { *flips = -1; *lam_out = lam; return X_ENDLESS; }
    XState h;
    xcopy(&h, x0, n); xcopy(&x, x0, n);
    for (i64 k = 0; k < lam; k++) xstep(&h, n, owner);
    i64 mu = 0;
    while (!xequal(&x, &h, n)) { xstep(&x, n, owner); xstep(&h, n, owner); mu++; }
    *flips = mu; *lam_out = lam;
    return X_ENDLESS;
}

/* ---- two players: from one won pile to the next -------------------------------------------
 * With two players and no pot, the face-up piles are empty after every win, so the positions
 * just after a win (and the deal) determine the game; repetition is looked for among them only.
 * Such a position is each player's cards in the order he will flip them (face-down pile top to
 * bottom; a ring in c from h, T cards) and whose turn it is. Between wins the players flip in
 * turn, each reading his ring round and round (turning the face-up pile over, SNAP-FLIP-3,
 * keeps the order), until a flipped card matches the other's last flipped card. If that never
 * happens, the flips repeat with period 2 lcm(T0, T1). Equal to the general loop, which
 * tests/test_exact.py checks. */
#define R3 64
typedef struct { u8 c[2][R3]; u8 h[2], t[2]; int turn; } X3;
enum { M_WON = 0, M_ENDED = 1, M_NOWIN = 2 };

static void x3_from(X3 *y, const XState *x) {
    for (int i = 0; i < 2; i++) {
        y->h[i] = 0; y->t[i] = x->dn[i];
        for (int k = 0; k < x->dn[i]; k++) y->c[i][k] = x->dc[i][(x->dh[i] + k) & (XR - 1)];
    }
    y->turn = x->turn;
}

static inline CC_ALWAYS_INLINE int x3equal(const X3 *a, const X3 *b) {
    if (a->turn != b->turn || a->t[0] != b->t[0] || a->t[1] != b->t[1]) return 0;
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < a->t[i]; k++) if (a->c[i][(a->h[i] + k) & (R3 - 1)] != b->c[i][(b->h[i] + k) & (R3 - 1)]) return 0;
    return 1;
}

static int gcd(int a, int b) { while (b) { int t = a % b; a = b; b = t; } return a; }

/* Play from a position just after a win to just after the next one. *flips grows by the flips
 * made; M_NOWIN: no flip will ever match again (*flips unchanged). */
static inline CC_ALWAYS_INLINE int x3macro(X3 *s, int owner, i64 *flips) {
    int p = s->turn, q = 1 - p, tp = s->t[p], tq = s->t[q], hp = s->h[p], hq = s->h[q];
    const u8 *cp = s->c[p], *cq = s->c[q];
    int jp = 0, jq = 0, last_q = -1, F = 0, limit = tp * tq + 1;
    for (int r = 0; r < limit; r++) {                       /* SNAP-FLIP-1, SNAP-MATCH-1 */
        int a = cp[(hp + jp) & (R3 - 1)] & 15;
        if (++jp == tp) jp = 0;
        if (a == last_q) { F = 2 * r + 1; break; }
        int b = cq[(hq + jq) & (R3 - 1)] & 15;
        if (++jq == tq) jq = 0;
        if (b == a) { F = 2 * r + 2; break; }
        last_q = b;
    }
    if (!F) return M_NOWIN;
    int np = (F + 1) / 2, nq = F / 2;
    int up[2], j[2], n[2];
    j[p] = jp; j[q] = jq; n[p] = np; n[q] = nq;
    for (int i = 0; i < 2; i++) {  /* face-up cards: since the last turn-over; rotate to the face-down top */
        up[i] = n[i] ? (j[i] ? j[i] : s->t[i]) : 0;
        int h = s->h[i], t = s->t[i];
        for (int k = 0; k < j[i]; k++) s->c[i][(h + t + k) & (R3 - 1)] = s->c[i][(h + k) & (R3 - 1)];
        s->h[i] = (u8)((h + j[i]) & (R3 - 1));
    }
    int f = F & 1 ? p : q, o = 1 - f;
    *flips += F;
    s->turn = o;                                            /* SNAP-TURN-2: clockwise from the flipper */
    if (!owner) { /* SNAP-CALL-5: the flipper wins the other's face-up pile under his own cards */
        int at = s->h[f] + s->t[f], from = s->h[o] + s->t[o] - up[o];
        for (int k = 0; k < up[o]; k++) s->c[f][(at + k) & (R3 - 1)] = s->c[o][(from + k) & (R3 - 1)];
        s->t[f] = (u8)(s->t[f] + up[o]); s->t[o] = (u8)(s->t[o] - up[o]);
        return s->t[o] ? M_WON : M_ENDED;
    }
    /* owner-first: the matched player wins the flipper's pile, then his own, under his face-down pile */
    u8 mine[XR];
    int at = s->h[o] + s->t[o] - up[o], from = s->h[f] + s->t[f] - up[f];
    for (int k = 0; k < up[o]; k++) mine[k] = s->c[o][(at + k) & (R3 - 1)];
    for (int k = 0; k < up[f]; k++) s->c[o][(at + k) & (R3 - 1)] = s->c[f][(from + k) & (R3 - 1)];
    for (int k = 0; k < up[o]; k++) s->c[o][(at + up[f] + k) & (R3 - 1)] = mine[k];
    s->t[o] = (u8)(s->t[o] + up[f]); s->t[f] = (u8)(s->t[f] - up[f]);
    return s->t[f] ? M_WON : M_ENDED;
}

static inline CC_ALWAYS_INLINE int x3decide(const X3 *y0, int owner, i64 cap, i64 *flips, i64 *lam_out) {
    X3 x = *y0, t = *y0;
    i64 fl = 0, tfl = 0, power = 1, lam = 1;
    int st = x3macro(&x, owner, &fl);
    while (st == M_WON && !x3equal(&x, &t)) {
        if (fl >= cap) { *flips = fl; return X_CAPPED; }
        if (power == lam) { t = x; tfl = fl; power *= 2; lam = 0; }
        st = x3macro(&x, owner, &fl); lam++;
    }
    if (st == M_ENDED) { *flips = fl; return X_ENDED; }
    *flips = -1;
    *lam_out = st == M_NOWIN ? 2 * (i64)x.t[0] / gcd(x.t[0], x.t[1]) * x.t[1] : fl - tfl;
    return X_ENDLESS;
}

/* Two players take the path above (unless cycle starts are asked for, or `general`, for tests). */
static int xdecide_any(const XState *x0, int n, int owner, int want_start, int general, i64 cap, i64 *flips,
                       i64 *lam) {
    if (n == 2 && !general && !want_start && !x0->over) {
        X3 y;
        x3_from(&y, x0);
        return owner ? x3decide(&y, 1, cap, flips, lam) : x3decide(&y, 0, cap, flips, lam);
    }
    return xdecide(x0, n, owner, want_start, cap, flips, lam);
}

/* Result layout per policy (policy p at out + p * (XHEAD + 3 * hist_len)):
 * [0] ended [1] endless [2] capped [3] flips of ended games (sum)
 * [4] longest ended: flips [5] its index [6] shortest cycle: length [7] index
 * [8] longest cycle: length [9] index [10..15] reserved;
 * then hist_len counts of ended-game lengths, of cycle lengths, of cycle starts
 * (a value >= hist_len - 1 counts in the last slot). Extremes keep the first index. */
#define XHEAD 16

static inline void xhist(i64 *h, i64 len, i64 v) { h[v < len ? v : len - 1]++; }

/* Decide the canonical sequences first .. first + count - 1 under the policies in `policies`
 * (bit 0 flipper-first, bit 1 owner-first; bit 2: also find where each cycle starts, a second
 * pass; bit 3: two players on the general path, for tests). Returns the number decided, or -1 on bad input. */
i64 exact_range(int players, int r, int s, int policies, i64 first, i64 count, i64 cap, i64 hist_len, i64 *out) {
    int n = players, ncards = r * s, starts = policies >> 2 & 1, general = policies >> 3 & 1;
    if (n < 2 || n > XP || hist_len < 2 || count < 0) return -1;
    i64 total = exact_count(r, s);
    if (total <= 0 || first < 0 || first + count > total) return -1;
    u8 seq[XR];
    if (count == 0) return 0;
    if (exact_unrank(r, s, first, seq)) return -1;
    i64 stride = XHEAD + 3 * hist_len;
    for (int p = 0; p < 2; p++) {
        i64 *o = out + p * stride;
        o[4] = o[5] = o[7] = o[9] = -1; o[6] = -1; o[8] = -1;
    }
    XState x0;
    for (i64 k = 0; k < count; k++) {
        xdeal(&x0, n, ncards, seq);
        for (int p = 0; p < 2; p++) {
            if (!(policies >> p & 1)) continue;
            i64 *o = out + p * stride, *hl = o + XHEAD, *hc = hl + hist_len, *hs = hc + hist_len;
            i64 flips = 0, lam = 0, index = first + k;
            int st = xdecide_any(&x0, n, p, starts, general, cap, &flips, &lam);
            o[st]++;
            if (st == X_ENDED) {
                o[3] += flips; xhist(hl, hist_len, flips);
                if (flips > o[4]) { o[4] = flips; o[5] = index; }
            } else if (st == X_ENDLESS) {
                xhist(hc, hist_len, lam);
                if (starts) xhist(hs, hist_len, flips);
                if (o[6] < 0 || lam < o[6]) { o[6] = lam; o[7] = index; }
                if (lam > o[8]) { o[8] = lam; o[9] = index; }
            }
        }
        if (k + 1 < count && !next_canonical(r, ncards, seq)) return -1;
    }
    return count;
}
