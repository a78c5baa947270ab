// The double-dummy search of Deep Six's card play, in C++ (no Python in this file).
//
// The same position and the same answer as deepsix.search._core: four packed hands (two
// bits per card, card c = 7 * suit + rank at bits 2c and 2c + 1), the current trick, its
// leader, the sunk suit and the play-over rule; the value is the card points North-South
// take from the start of the current trick to the end of the hand, the last-trick bonus
// included.  North-South minimise it, East-West maximise it.
//
// Techniques (each one a flag, so the tests can switch it off and see no value change):
// a transposition table of bounds at trick boundaries (one per thread, kept between
// searches, 112-bit keys), keyed by relative ranks (pointless ranks nobody holds squeezed
// out; touching pointless ranks held by one player alone re-packed), equivalent cards
// searched once (merge), move ordering with killers, static bounds, the last two tricks
// solved exactly by plain minimax and cached, enhanced transposition cutoffs at a trick's
// last card from seven tricks left, and MTD(f) driven from a play-out's value (from seven
// tricks left: from a trick's play-out and the exact value after it).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace deepsix {

#ifdef DEEPSIX_STATS
struct Stats { long long iters=0, probes=0, hits=0, tcuts=0, cuts=0, cutidx[29]={0}, allnodes=0, bnodes[16]={0}, mnodes[16]={0}; };
inline Stats stats;
#define STAT(x) (stats.x)
#else
#define STAT(x) (void)0
#endif

using u64 = std::uint64_t;

constexpr int kBonus = 10;
constexpr int kDeepenFrom = 7;  // deepsix.scoring.LAST_TRICK_BONUS
constexpr int kInf = 1 << 20;
constexpr int kHandSize = 14;
constexpr u64 kSuitMask = (1u << 14) - 1;
constexpr u64 kLowBits = 0x55555555555555ULL;  // the low bit of each of the 28 cards
constexpr u64 kHighBits = kLowBits << 1;

enum Flag : unsigned {
    kTable = 1,     // transposition table at trick boundaries
    kSqueeze = 2,   // relative-rank table keys
    kRuns = 4,      // a run of touching pointless ranks held by one player: re-packed
    kMerge = 8,     // equivalent cards searched once
    kOrder = 16,    // move ordering (else low card first)
    kKillers = 32,  // the card that last cut off at the same place, tried early
    kBounds = 64,   // static cutoffs: a boundary's value lies in [0, points left + bonus]
    kGuess = 128,   // MTD(f) starts at a play-out's value, not at 0
    kTwo = 256,     // two tricks left: solved exactly by plain minimax, cached
    kDeepen = 512,  // from kDeepenFrom tricks left MTD(f) starts at a trick's play-out + exact rest
    kEtc = 1024,    // enhanced transposition cutoffs at a trick's last card
    kAll = 2047,
};

inline int points_of(int card) {
    const int rank = card % 7;
    return rank == 0 ? 20 : rank == 1 ? 10 : 0;
}
inline u64 bit_of(int card) { return u64{1} << (2 * card); }
inline int count_of(u64 hand, int card) { return static_cast<int>((hand >> (2 * card)) & 3); }
inline int size_of(u64 hand) {
    return __builtin_popcountll(hand & kLowBits) + 2 * __builtin_popcountll(hand & kHighBits);
}
inline u64 presence(u64 hand) { return (hand | (hand >> 1)) & kLowBits; }

// deepsix.tricks.winning_position: the last suit introduced wins (the sunk suit counts as
// introduced before every other); of two identical cards the later one wins.
inline int winning_position(const int* cards, int n, int sunk) {
    int winning_suit = cards[0] / 7;
    int best = cards[0];
    int position = 0;
    unsigned introduced = 1u << winning_suit;
    for (int i = 1; i < n; ++i) {
        const int card = cards[i];
        const int suit = card / 7;
        if (suit == winning_suit) {
            if (card >= best) {
                best = card;
                position = i;
            }
        } else if (suit != sunk && !(introduced & (1u << suit))) {
            introduced |= 1u << suit;
            winning_suit = suit;
            best = card;
            position = i;
        }
    }
    return position;
}

// deepsix.tricks.play_window, as the packed cards of ``hand`` that may be played.
inline u64 legal_cards(u64 hand, const int* trick, int n, int sunk, int play_over) {
    if (n == 0) return hand;
    const int led = trick[0] / 7;
    const int shift = 14 * led;
    u64 block = (hand >> shift) & kSuitMask;
    if (!block) return hand;
    int bar;
    if (n == 1) {
        bar = trick[0];
    } else if (play_over == 0) {  // PlayOver.WIN_TRICK
        bar = trick[winning_position(trick, n, sunk)];
        if (bar / 7 != led) bar = -1;
    } else {  // PlayOver.BEAT_LED_SUIT
        bar = -1;
        for (int i = 0; i < n; ++i)
            if (trick[i] / 7 == led && trick[i] > bar) bar = trick[i];
    }
    if (bar >= 0) {
        const u64 above = block & (kSuitMask << (2 * (bar % 7)) & kSuitMask);
        if (above) block = above;
    }
    return block << shift;
}

struct BudgetExceeded : std::runtime_error {
    BudgetExceeded() : std::runtime_error("the search ran out of its node budget") {}
};

// A position to search: what the binding hands over (checked by check()).
struct Position {
    u64 hands[4] = {0, 0, 0, 0};
    int trick[3] = {0, 0, 0};
    int played = 0;  // cards in the current trick (0 to 3)
    int leader = 0;  // the seat that led the current trick
    int sunk = 0;
    int play_over = 0;  // 0: WIN_TRICK, 1: BEAT_LED_SUIT
};

// Raise std::invalid_argument naming the rule a position breaks (never searched then).
inline void check(const Position& p) {
    auto fail = [](const std::string& why) { throw std::invalid_argument(why); };
    if (p.sunk < 0 || p.sunk > 3) fail("the sunk suit must be a suit (0 to 3)");
    if (p.play_over < 0 || p.play_over > 1) fail("the play-over rule must be 0 or 1");
    if (p.leader < 0 || p.leader > 3) fail("the leader must be a seat (0 to 3)");
    if (p.played < 0 || p.played > 3) fail("a trick in progress holds 0 to 3 cards");
    for (int i = 0; i < p.played; ++i)
        if (p.trick[i] < 0 || p.trick[i] > 27) fail("a card is a number from 0 to 27");
    for (int s = 0; s < 4; ++s) {
        if (p.hands[s] >> 56) fail("a packed hand has 56 bits (28 cards, two bits each)");
        if ((p.hands[s] & kHighBits) >> 1 & p.hands[s] & kLowBits)
            fail("a hand holds a card at most twice");
    }
    for (int c = 0; c < 28; ++c) {
        int copies = 0;
        for (int s = 0; s < 4; ++s) copies += count_of(p.hands[s], c);
        for (int i = 0; i < p.played; ++i) copies += p.trick[i] == c;
        if (copies > 2) fail("the deck holds each card twice (R-DECK)");
    }
    const int mover = (p.leader + p.played) & 3;
    const int tricks_left = size_of(p.hands[mover]);
    if (tricks_left < 1 || tricks_left > kHandSize)
        fail("the seat to act must hold 1 to 14 cards");
    for (int k = 0; k < 4; ++k) {
        const int seat = (p.leader + k) & 3;
        if (size_of(p.hands[seat]) != tricks_left - (k < p.played ? 1 : 0))
            fail("every seat holds one card per trick left (less the card it played to this trick)");
    }
    for (int i = 1; i < p.played; ++i) {  // each follower's card was legal (R-PLAY-2, R-PLAY-3)
        const int seat = (p.leader + i) & 3;
        const u64 before = p.hands[seat] + bit_of(p.trick[i]);
        if (!(legal_cards(before, p.trick, i, p.sunk, p.play_over) & (u64{3} << (2 * p.trick[i]))))
            fail("a card of the trick breaks the follow-suit or play-over rule (R-PLAY-2, R-PLAY-3)");
    }
}

// The four hands in 112 bits: each card's copies among the seats (at most two, so one of
// fifteen spreads) as four bits, cards 0 to 13 in key[0], 14 to 27 in key[1]; the leader
// in bits 56 and 57 of key[0].
struct Key {
    u64 k[2];
    bool operator==(const Key& o) const { return k[0] == o.k[0] && k[1] == o.k[1]; }
};

// spread[c0 | c1 << 2 | c2 << 4 | c3 << 6]: the four-bit code of a card's copies per seat.
struct Spreads {
    std::uint8_t code[256] = {};
    constexpr Spreads() {
        int next = 0;
        for (int i = 0; i < 256; ++i) {
            const int total = (i & 3) + (i >> 2 & 3) + (i >> 4 & 3) + (i >> 6 & 3);
            if (total <= 2) code[i] = static_cast<std::uint8_t>(next++);
        }
    }
};
inline constexpr Spreads kSpreads{};

inline Key pack(const u64* hands, int leader) {
    Key key{{0, 0}};
    for (int half = 0; half < 2; ++half) {
        const int shift = 28 * half;
        const u64 a = hands[0] >> shift, b = hands[1] >> shift, c = hands[2] >> shift,
                  d = hands[3] >> shift;
        u64 out = 0;
        for (int i = 0; i < 14; ++i) {
            const int at = 2 * i;
            const unsigned index = static_cast<unsigned>((a >> at & 3) | (b >> at & 3) << 2 |
                                                         (c >> at & 3) << 4 | (d >> at & 3) << 6);
            out |= static_cast<u64>(kSpreads.code[index]) << (4 * i);
        }
        key.k[half] = out;
    }
    key.k[0] |= static_cast<u64>(leader) << 56;
    return key;
}

struct Entry {
    Key key;
    std::int16_t low;
    std::int16_t high;
    std::int8_t best;    // the lead that proved it (-1: none)
    std::uint8_t depth;  // tricks left
    std::uint16_t stamp;  // the search that wrote it: other stamps are empty slots
};

// The transposition table: buckets of four entries, the shallowest replaced.  One table
// per thread, kept between searches: a new search takes a new stamp instead of clearing
// it, and its pages are zeroed lazily by the system (calloc) the first time they are used.
class Table {
public:
    explicit Table(int bits)
        : slots_(static_cast<Entry*>(std::calloc(std::size_t{1} << bits, sizeof(Entry)))),
          mask_((std::size_t{1} << bits) - 1), bits_(bits) {
        if (!slots_) throw std::bad_alloc();
    }
    ~Table() { std::free(slots_); }
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;

    int bits() const { return bits_; }
    void renew() {
        if (++stamp_ == 0) {  // every stamp used: clear for real once in 65,535 searches
            std::memset(static_cast<void*>(slots_), 0, (mask_ + 1) * sizeof(Entry));
            stamp_ = 1;
        }
    }
    static std::size_t hash(const Key& key) {
        u64 h = key.k[0] * 0x9E3779B97F4A7C15ULL;
        h ^= (key.k[1] + (h << 6) + (h >> 2)) * 0xC2B2AE3D27D4EB4FULL;
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
    static std::size_t hash(const u64* key) {
        u64 h = key[0] * 0x9E3779B97F4A7C15ULL;
        h ^= (key[1] + (h << 6) + (h >> 2)) * 0xC2B2AE3D27D4EB4FULL;
        h ^= (key[2] + (h << 6) + (h >> 2)) * 0x165667B19E3779F9ULL;
        h ^= (key[3] + (h << 6) + (h >> 2)) * 0x27D4EB2F165667C5ULL;
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
    Entry* find(const Key& key) {
        const std::size_t base = hash(key) & mask_ & ~std::size_t{3};
        for (std::size_t i = 0; i < 4; ++i) {
            Entry& e = slots_[base + i];
            if (e.stamp == stamp_ && e.key == key) return &e;
        }
        return nullptr;
    }
    // Where to store ``key``: its own slot, an empty one or the shallowest of the bucket.
    Entry* place(const Key& key) {
        const std::size_t base = hash(key) & mask_ & ~std::size_t{3};
        Entry* victim = &slots_[base];
        for (std::size_t i = 0; i < 4; ++i) {
            Entry& e = slots_[base + i];
            if (e.stamp != stamp_) return &e;
            if (e.key == key) return &e;
            if (e.depth < victim->depth) victim = &e;
        }
        return victim;
    }
    void store(Entry* e, const Key& key, int low, int high, int best, int depth) const {
        e->key = key;
        e->low = static_cast<std::int16_t>(low);
        e->high = static_cast<std::int16_t>(high);
        e->best = static_cast<std::int8_t>(best);
        e->depth = static_cast<std::uint8_t>(depth);
        e->stamp = stamp_;
    }

private:
    Entry* slots_;
    std::size_t mask_;
    int bits_;
    std::uint16_t stamp_ = 0;
};

// This thread's table of 2 ** bits entries (24 bytes each), made again only when the size
// asked for changes.
inline Table& thread_table(int bits) {
    thread_local std::unique_ptr<Table> table;
    if (!table || table->bits() != bits) {
        table.reset();
        table = std::make_unique<Table>(bits);
    }
    table->renew();
    return *table;
}

// The table's size (log2 of its entries) when the caller names none: 24 bytes an entry,
// so 2 ** 23 entries (192 MiB) from eleven tricks left.
inline int default_bits(int tricks_left) { return std::min(23, std::max(12, 12 + tricks_left)); }

// The exact values of positions two tricks from the end, by their four hands and leader:
// one cache per thread, kept between searches (its stamp is the table's, renewed together).
struct TwoCache {
    struct Slot {
        u64 key[4];
        std::int16_t value;
        std::uint16_t stamp;
    };
    static constexpr std::size_t kSlots = std::size_t{1} << 16;
    std::unique_ptr<Slot[]> slots = std::make_unique<Slot[]>(kSlots);
    std::uint16_t stamp = 0;
    void renew() {
        if (++stamp == 0) {
            for (std::size_t i = 0; i < kSlots; ++i) slots[i].stamp = 0;
            stamp = 1;
        }
    }
};
inline TwoCache& thread_two_cache() {
    thread_local TwoCache cache;
    return cache;
}

class Search {
public:
    Search(const Position& p, unsigned flags, long long node_limit, int table_bits)
        : sunk_(p.sunk), play_over_(p.play_over), flags_(flags), limit_(node_limit) {
        for (int s = 0; s < 4; ++s) h_[s] = p.hands[s];
        played_ = p.played;
        leader_ = p.leader;
        for (int i = 0; i < p.played; ++i) trick_[i] = p.trick[i];
        tricks_left_ = size_of(h_[(p.leader + p.played) & 3]);
        left_ = 0;
        for (int s = 0; s < 4; ++s)
            for (int c = 0; c < 28; ++c) left_ += points_of(c) * count_of(h_[s], c);
        for (int i = 0; i < played_; ++i) left_ += points_of(trick_[i]);
        if (flags_ & kTable) {
            const int bits = table_bits > 0 ? table_bits : default_bits(tricks_left_);
            table_ = &thread_table(std::max(4, std::min(bits, 28)));
        }
        if (flags_ & kTwo) thread_two_cache().renew();
        std::fill(&killers_[0][0][0], &killers_[0][0][0] + sizeof(killers_) / sizeof(int), -1);
    }

    long long nodes() const { return nodes_; }
    int total() const { return left_ + kBonus; }  // every point North-South could still take
    int mover() const { return (leader_ + played_) & 3; }

    // The mover's distinct legal cards, one per class of equivalent cards when ``merge``
    // (low to high); returns how many.
    int classes(int* out, bool merge) const {
        const int seat = mover();
        const u64 legal = legal_cards(h_[seat], trick_, played_, sunk_, play_over_);
        u64 others = presence(h_[(seat + 1) & 3] | h_[(seat + 2) & 3] | h_[(seat + 3) & 3]);
        for (int i = 0; i < played_; ++i) others |= bit_of(trick_[i]);
        const u64 mine = presence(legal);
        int n = 0;
        for (int suit = 0; suit < 4; ++suit) {
            const int shift = 14 * suit;
            const u64 theirs = others >> shift & kSuitMask;
            int previous = -1;
            for (u64 rest = mine >> shift & kSuitMask; rest; rest &= rest - 1) {
                const int at = __builtin_ctzll(rest);  // 2 * rank
                // the card is its class's lowest unless it and the previous card of its suit
                // are pointless and nobody else holds a card from the one to the other
                if (!merge || at < 4 || previous < 4 ||
                    (theirs & (((u64{1} << (at + 1)) - 1) & ~((u64{1} << previous) - 1))))
                    out[n++] = 7 * suit + at / 2;
                previous = at;
            }
        }
        return n;
    }

    // North-South's exact points from the start of the current trick (MTD(f)).
    int exact(int guess = -1) {
        int low = 0;
        int high = left_ + kBonus;
        if (guess < 0) {
            if (!(flags_ & kGuess))
                guess = 0;
            else if ((flags_ & kDeepen) && tricks_left_ >= kDeepenFrom)
                guess = deepened();
            else
                guess = playout();
        }
        int value = std::min(std::max(guess, low), high);
        while (low < high) {
            const int beta = value == low ? value + 1 : value;
            value = root(beta - 1, beta);
#ifdef DEEPSIX_STATS
            ++stats.iters;
#endif
            if (value < beta)
                high = value;
            else
                low = value;
        }
        return low;
    }

    // The hand's score from here under best play for it (deepsix.search._score): North-South's
    // recorded score minus East-West's, which North-South minimise; ``outcome[f]`` is that
    // score if North-South take 10 f more points, for f = 0 to total() / 10.  The card-point
    // value bounds it; where the bounds do not meet, target searches settle it.
    int score(const std::vector<int>& outcome) {
        const int reach = total() / 10;
        if (static_cast<int>(outcome.size()) != reach + 1)
            throw std::invalid_argument("the outcomes are one score for each 10 points left");
        const int v = exact() / 10;
        int low = kInf, high = -kInf;
        for (int f = v; f <= reach; ++f) low = std::min(low, outcome[f]);
        for (int f = 0; f <= v; ++f) high = std::max(high, outcome[f]);
        if (low == high) return low;
        std::vector<int> candidates;
        for (const int value : outcome)
            if (value >= low && value <= high) candidates.push_back(value);
        std::sort(candidates.begin(), candidates.end());
        candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
        std::size_t lo = 0, hi = candidates.size() - 1;  // North-South force candidates[hi]
        while (lo < hi) {
            const std::size_t middle = (lo + hi) / 2;
            std::uint32_t mask = 0;
            for (int f = 0; f <= reach; ++f)
                if (outcome[f] <= candidates[middle]) mask |= std::uint32_t{1} << f;
            if (forces(mask))
                hi = middle;
            else
                lo = middle + 1;
        }
        return candidates[lo];
    }

    // Fail-soft alpha-beta value of the current position.
    int root(int alpha, int beta) { return played_ == 0 ? boundary(alpha, beta) : moves(alpha, beta, -1); }

    // The value after the mover plays ``card`` (fail-soft within alpha, beta; exact when
    // ``exactly``), in the root's frame.
    int after(int card, int alpha, int beta, bool exactly) {
        const int seat = mover();
        h_[seat] -= bit_of(card);
        trick_[played_++] = card;
        int value;
        if (played_ < 4) {
            value = exactly ? exact() : moves(alpha, beta, -1);
        } else {
            Saved saved = finish();
            if (tricks_left_ == 0) {
                value = saved.ns + (saved.ns_won ? kBonus : 0);
            } else {
                value = saved.ns + (exactly ? exact() : boundary(alpha - saved.ns, beta - saved.ns));
            }
            unfinish(saved);
        }
        trick_[--played_] = 0;
        h_[seat] += bit_of(card);
        return value;
    }

private:
    struct Saved {
        int ns;
        bool ns_won;
        int leader;
        int trick[4];
    };

    // Close the trick of four cards: the next trick starts, led by its winner.
    Saved finish() {
        Saved s;
        s.leader = leader_;
        int pts = 0;
        for (int i = 0; i < 4; ++i) {
            s.trick[i] = trick_[i];
            pts += points_of(trick_[i]);
        }
        const int winner = (leader_ + winning_position(trick_, 4, sunk_)) & 3;
        s.ns_won = !(winner & 1);
        s.ns = s.ns_won ? pts : 0;
        left_ -= pts;
        --tricks_left_;
        leader_ = winner;
        played_ = 0;
        return s;
    }
    void unfinish(const Saved& s) {
        played_ = 4;
        leader_ = s.leader;
        ++tricks_left_;
        int pts = 0;
        for (int i = 0; i < 4; ++i) {
            trick_[i] = s.trick[i];
            pts += points_of(s.trick[i]);
        }
        left_ += pts;
    }

    // What the target searches know of a trick boundary: its card-point value (-1: not yet)
    // and the targets North-South can and cannot force from it.
    struct Targets {
        int value = -1;
        std::vector<std::uint32_t> forced, refuted;
    };
    struct KeyHash {
        std::size_t operator()(const Key& key) const { return Table::hash(key); }
    };

    // Whether North-South can force the points they take from here into ``mask`` (bit f:
    // 10 f points): a target holding one they force is forced, one inside a target they
    // cannot force is not; at a boundary the card-point value decides where it can.
    bool forces(std::uint32_t mask) {
        if (played_ > 0) return forces_by_move(mask);
        const int reach = total() / 10;
        const std::uint32_t every = (std::uint32_t{2} << reach) - 1;
        mask &= every;
        if (!mask) return false;
        if (mask == every) return true;
        const Key k = key();
        {
            Targets& known = targets_[k];
            for (const std::uint32_t m : known.forced)
                if (!(m & ~mask)) return true;
            for (const std::uint32_t m : known.refuted)
                if (!(mask & ~m)) return false;
        }
        int value = targets_[k].value;
        if (value < 0) targets_[k].value = value = exact();
        const int v = value / 10;
        const std::uint32_t below = (std::uint32_t{2} << v) - 1;
        if ((mask & below) == below) return true;
        if (!(mask >> v)) return false;
        const bool answer = forces_by_move(mask);
        Targets& known = targets_[k];  // looked up again: the search may have rehashed
        (answer ? known.forced : known.refuted).push_back(mask);
        return answer;
    }

    bool forces_by_move(std::uint32_t mask) {
        if (++nodes_ > limit_) throw BudgetExceeded();
        int cards[28];
        const int n = classes(cards, flags_ & kMerge);
        const int seat = mover();
        const bool north_south = !(seat & 1);
        for (int i = 0; i < n; ++i) {
            const int card = cards[i];
            h_[seat] -= bit_of(card);
            trick_[played_++] = card;
            bool answer;
            if (played_ < 4) {
                answer = forces(mask);
            } else {
                Saved saved = finish();
                const int won = saved.ns + (tricks_left_ == 0 && saved.ns_won ? kBonus : 0);
                const std::uint32_t target = mask >> (won / 10);
                answer = tricks_left_ == 0 ? (target & 1) != 0 : forces(target);
                unfinish(saved);
            }
            trick_[--played_] = 0;
            h_[seat] += bit_of(card);
            if (answer == north_south) return answer;  // a way found, or a refutation
        }
        return !north_south;
    }

    // Relative-rank form of the four hands (and the leader) at a trick boundary.
    Key key() const {
        if (!(flags_ & kSqueeze)) return pack(h_, leader_);
        Key out{{static_cast<u64>(leader_) << 56, 0}};
        const bool runs = flags_ & kRuns;
        for (int suit = 0; suit < 4; ++suit) {
            const int shift = 14 * suit;
            const u64 b0 = h_[0] >> shift, b1 = h_[1] >> shift, b2 = h_[2] >> shift, b3 = h_[3] >> shift;
            u64& half = out.k[suit >> 1];
            int at = 28 * (suit & 1);  // the next place's four bits in ``half``
            auto emit = [&](unsigned spread) {
                half |= static_cast<u64>(kSpreads.code[spread]) << at;
                at += 4;
            };
            // the run in progress: one player holding touching pointless ranks alone
            int holder = -1;
            unsigned run = 0;
            auto emit_run = [&]() {
                for (; run > 0; run -= run >= 2 ? 2 : 1) emit((run >= 2 ? 2u : 1u) << (2 * holder));
            };
            for (int rank = 0; rank < 7; ++rank) {
                const int r = 2 * rank;
                // each seat's copies of the card, two bits a seat
                const unsigned spread = static_cast<unsigned>((b0 >> r & 3) | (b1 >> r & 3) << 2 |
                                                              (b2 >> r & 3) << 4 | (b3 >> r & 3) << 6);
                if (rank < 2) {  // 2s and 3s carry points: they keep their places
                    emit(spread);
                    continue;
                }
                if (!spread) continue;  // a pointless rank nobody holds: squeezed out
                const unsigned seats = (spread | spread >> 1) & 0x55u;
                if (runs && !(seats & (seats - 1))) {  // one holder
                    const int single = __builtin_ctz(seats) / 2;
                    if (holder != single) {
                        emit_run();
                        holder = single;
                    }
                    run += spread >> (2 * single) & 3;
                    continue;
                }
                emit_run();
                holder = -1;
                emit(spread);
            }
            emit_run();
        }
        return out;
    }

    // North-South's points from a trick boundary (no card of the trick played yet).
    int boundary(int alpha, int beta) {
        if (tricks_left_ == 2 && (flags_ & kTwo)) return two();
        if (tricks_left_ == 1) {  // every card is forced
            ++nodes_;
            int cards[4];
            for (int k = 0; k < 4; ++k) cards[k] = __builtin_ctzll(h_[(leader_ + k) & 3]) / 2;
            const int winner = (leader_ + winning_position(cards, 4, sunk_)) & 3;
            return winner & 1 ? 0 : left_ + kBonus;
        }
        const int high0 = left_ + kBonus;
        if (flags_ & kBounds) {
            if (beta <= 0) return 0;
            if (alpha >= high0) return high0;
        }
        if (!(flags_ & kTable)) return moves(alpha, beta, -1);
        const Key k = key();
        // Without the static bounds the table knows nothing until searched (the window
        // handed to moves() must not be empty: a cut-off's value bounds one side only).
        const bool bounded = flags_ & kBounds;
        int low = bounded ? 0 : -1000;
        int high = bounded ? high0 : 1000;
        int hint = -1;
#ifdef DEEPSIX_STATS
        ++stats.probes; ++stats.bnodes[tricks_left_];
#endif
        if (const Entry* e = table_->find(k)) {
#ifdef DEEPSIX_STATS
            ++stats.hits;
            if (e->low >= beta || e->high <= alpha) ++stats.tcuts;
#endif
            low = e->low;
            high = e->high;
            hint = e->best;
            if (low >= beta) return low;
            if (high <= alpha) return high;
        }
        const int a = std::max(alpha, low);
        const int b = std::min(beta, high);
        const int value = moves(a, b, hint);
        if (value <= a)
            high = std::min(high, value);
        else if (value >= b)
            low = std::max(low, value);
        else
            low = high = value;
        table_->store(table_->place(k), k, low, high, best_, tricks_left_);
        return value;
    }

    // North-South's exact points from a boundary with two tricks left: each seat holds two
    // cards, so the first trick is at most sixteen plays (plain minimax) and the last forced.
    int two() {
        const u64 key[4] = {h_[0] | static_cast<u64>(leader_) << 56, h_[1], h_[2], h_[3]};
        TwoCache& cache = thread_two_cache();
        TwoCache::Slot& slot = cache.slots[Table::hash(key) & (TwoCache::kSlots - 1)];
        if (slot.stamp == cache.stamp && slot.key[0] == key[0] && slot.key[1] == key[1] &&
            slot.key[2] == key[2] && slot.key[3] == key[3])
            return slot.value;
        ++nodes_;
        int trick[4], kept[4];
        const int value = two_ply(0, trick, 0, kept);
        for (int i = 0; i < 4; ++i) slot.key[i] = key[i];
        slot.value = static_cast<std::int16_t>(value);
        slot.stamp = cache.stamp;
        return value;
    }
    // Minimax over the first of the last two tricks from its k-th card (``points`` so far);
    // ``left[i]``: the card the i-th seat of the trick keeps for the last trick.
    int two_ply(int k, int* trick, int points, int* kept) const {
        if (k == 4) {
            const int first = winning_position(trick, 4, sunk_);
            int last[4];
            for (int j = 0; j < 4; ++j) last[j] = kept[(first + j) & 3];
            const int winner = (leader_ + first) & 3;
            const int ends = (winner + winning_position(last, 4, sunk_)) & 3;
            return (winner & 1 ? 0 : points) + (ends & 1 ? 0 : left_ + kBonus - points);
        }
        const u64 hand = h_[(leader_ + k) & 3];
        const int low = __builtin_ctzll(hand) / 2;
        const int high = (63 - __builtin_clzll(hand)) / 2;
        const u64 legal = legal_cards(hand, trick, k, sunk_, play_over_);
        const bool minimising = !((leader_ + k) & 1);
        int best = minimising ? kInf : -kInf;
        for (int option = 0; option < 2; ++option) {
            const int card = option ? high : low;
            if (option && high == low) break;
            if (!(legal >> (2 * card) & 3)) continue;
            trick[k] = card;
            kept[k] = option ? low : high;
            const int value = two_ply(k + 1, trick, points + points_of(card), kept);
            best = minimising ? std::min(best, value) : std::max(best, value);
        }
        return best;
    }

    // The order to try the mover's cards: Python's scores (deepsix.search._core), lowest first.
    int score(int card, int seat) const {
        const int pts = points_of(card);
        const int rank = card % 7;
        if (played_ == 0) {
            const int lead = 64 - 2 * pts + rank;
            if (card / 7 == sunk_) return lead + 100;
            const u64 opponents = h_[(seat + 1) & 3] | h_[(seat + 3) & 3];
            const u64 upward = (kSuitMask << (2 * rank) & kSuitMask) << (14 * (card / 7));
            return (opponents & upward) ? lead : lead + 200;
        }
        int cards[4] = {trick_[0], trick_[1], trick_[2], card};
        cards[played_] = card;
        const int winner = (leader_ + winning_position(cards, played_ + 1, sunk_)) & 3;
        const bool mine = (winner & 1) == (seat & 1);
        if (played_ < 3 && mine && card / 7 == trick_[0] / 7) return 128 + 8 * pts + rank;
        if (played_ == 1) return 128 + 8 * pts - rank;
        if (mine) return 128 + 4 * pts - rank;
        return 128 - 4 * pts - rank;
    }

    int order(int* cards, int n, int hint) const {
        if (flags_ & kOrder) {
            const int seat = mover();
            int keys[28];
            for (int i = 0; i < n; ++i) keys[i] = score(cards[i], seat) * 32 + cards[i];
            std::sort(keys, keys + n);
            for (int i = 0; i < n; ++i) cards[i] = keys[i] & 31;
        }
        if (flags_ & kKillers) {
            const int killer = killers_[tricks_left_][played_][played_ ? trick_[played_ - 1] + 1 : 0];
            promote(cards, n, killer);
        }
        promote(cards, n, hint);
        return n;
    }
    static void promote(int* cards, int n, int card) {
        if (card < 0) return;
        for (int i = 0; i < n; ++i)
            if (cards[i] == card) {
                for (int j = i; j > 0; --j) cards[j] = cards[j - 1];
                cards[0] = card;
                return;
            }
    }

    // Enhanced transposition cutoff at a trick's last card: a card whose next trick's table
    // entry already decides the window ends the search of this position unsearched.
    static constexpr int kNoCut = -kInf - 1;
    int enhanced_cutoff(const int* cards, int n, int seat, bool minimising, int alpha, int beta) {
        int points = 0;
        for (int i = 0; i < 3; ++i) points += points_of(trick_[i]);
        const int leader = leader_;
        for (int i = 0; i < n; ++i) {
            const int card = cards[i];
            trick_[3] = card;
            const int winner = (leader + winning_position(trick_, 4, sunk_)) & 3;
            const int ns = winner & 1 ? 0 : points + points_of(card);
            h_[seat] -= bit_of(card);
            leader_ = winner;
            const Entry* e = table_->find(key());
            leader_ = leader;
            h_[seat] += bit_of(card);
            if (!e) continue;
            if (minimising ? ns + e->high <= alpha : ns + e->low >= beta) {
                trick_[3] = 0;
                best_ = card;
                return minimising ? ns + e->high : ns + e->low;
            }
        }
        trick_[3] = 0;
        return kNoCut;
    }

    // Fail-soft alpha-beta over the mover's cards; sets best_.
    int moves(int alpha, int beta, int hint) {
        if (++nodes_ > limit_) throw BudgetExceeded();
#ifdef DEEPSIX_STATS
        ++stats.mnodes[tricks_left_];
#endif
        int cards[28];
        int n = classes(cards, flags_ & kMerge);
        order(cards, n, hint);
        const int seat = mover();
        const bool minimising = !(seat & 1);
        if (played_ == 3 && tricks_left_ > 6 && (flags_ & kEtc) && (flags_ & kTable)) {
            const int cut = enhanced_cutoff(cards, n, seat, minimising, alpha, beta);
            if (cut != kNoCut) return cut;
        }
        int best = minimising ? kInf : -kInf;
        int best_card = cards[0];
        for (int i = 0; i < n; ++i) {
            const int card = cards[i];
            const int value = after(card, alpha, beta, false);
            if (minimising) {
                if (value < best) {
                    best = value;
                    best_card = card;
                    if (value < beta) beta = value;
                }
            } else if (value > best) {
                best = value;
                best_card = card;
                if (value > alpha) alpha = value;
            }
            if (alpha >= beta) {
#ifdef DEEPSIX_STATS
                ++stats.cuts; ++stats.cutidx[i];
#endif
                if (flags_ & kKillers)
                    killers_[tricks_left_][played_][played_ ? trick_[played_ - 1] + 1 : 0] = card;
                break;
            }
        }
#ifdef DEEPSIX_STATS
        if (!(alpha >= beta)) ++stats.allnodes;
#endif
        best_ = best_card;
        return best;
    }

    // North-South's points if the current trick is played by the cards the ordering tries
    // first and the rest of the hand exactly: a first guess for MTD(f) nearer the value
    // than a whole play-out, whose search leaves the table full of bounds along that line.
    int deepened() {
        const u64 saved_hands[4] = {h_[0], h_[1], h_[2], h_[3]};
        const int saved_played = played_;
        int saved_trick[4] = {trick_[0], trick_[1], trick_[2], trick_[3]};
        while (played_ < 4) {
            int cards[28];
            const int n = classes(cards, false);
            order(cards, n, -1);
            h_[mover()] -= bit_of(cards[0]);
            trick_[played_++] = cards[0];
        }
        const Saved s = finish();
        const int value = s.ns + (tricks_left_ == 0 ? (s.ns_won ? kBonus : 0) : exact());
        unfinish(s);
        for (int k = 0; k < 4; ++k) h_[k] = saved_hands[k];
        played_ = saved_played;
        for (int i = 0; i < 4; ++i) trick_[i] = saved_trick[i];
        return value;
    }

    // North-South's points if every player plays the card the ordering tries first.
    int playout() {
        const u64 saved_hands[4] = {h_[0], h_[1], h_[2], h_[3]};
        const int saved_played = played_, saved_leader = leader_, saved_tricks = tricks_left_;
        const int saved_left = left_;
        int saved_trick[4] = {trick_[0], trick_[1], trick_[2], trick_[3]};
        int ns = 0;
        while (tricks_left_ > 0) {
            int cards[28];
            const int n = classes(cards, false);
            order(cards, n, -1);
            h_[mover()] -= bit_of(cards[0]);
            trick_[played_++] = cards[0];
            if (played_ == 4) {
                const Saved s = finish();
                ns += s.ns + (tricks_left_ == 0 && s.ns_won ? kBonus : 0);
            }
        }
        for (int s = 0; s < 4; ++s) h_[s] = saved_hands[s];
        played_ = saved_played;
        leader_ = saved_leader;
        tricks_left_ = saved_tricks;
        left_ = saved_left;
        for (int i = 0; i < 4; ++i) trick_[i] = saved_trick[i];
        return ns;
    }

    u64 h_[4];
    int trick_[4] = {0, 0, 0, 0};
    int played_ = 0;
    int leader_ = 0;
    int tricks_left_ = 0;
    int left_ = 0;  // card points in the hands and the current trick
    int sunk_;
    int play_over_;
    unsigned flags_;
    long long nodes_ = 0;
    long long limit_;
    std::unordered_map<Key, Targets, KeyHash> targets_;
    int best_ = -1;
    Table* table_ = nullptr;
    int killers_[kHandSize + 1][4][29];
};

struct Solved {
    int value = 0;                 // North-South's points from the start of the trick
    int total = 0;                 // every point still to be taken (both teams' sum)
    std::vector<int> best;         // every distinct legal card achieving ``value``
    std::vector<int> cards;        // move_values: each distinct legal card ...
    std::vector<int> values;       // ... and North-South's points after it
    long long nodes = 0;
};

// The representative (searched) card of each distinct legal card of the mover.
inline void representatives(const Search& s, std::vector<int>& legal, std::vector<int>& rep, bool merge) {
    int all[28];
    int kept[28];
    const int n = s.classes(all, false);
    const int k = s.classes(kept, merge);
    legal.assign(all, all + n);
    rep.assign(n, -1);
    int current = -1;
    for (int i = 0; i < n; ++i) {
        const bool is_kept = std::find(kept, kept + k, all[i]) != kept + k;
        if (is_kept || current < 0 || all[i] / 7 != current / 7) current = all[i];
        rep[i] = current;
    }
}

// What: 0 = value only, 1 = value and best cards, 2 = every card's value.
inline Solved solve(const Position& p, int what, unsigned flags, long long node_limit, int table_bits) {
    check(p);
    Search s(p, flags, node_limit, table_bits);
    Solved out;
    out.total = s.total();
    std::vector<int> legal, rep;
    if (what == 2) {
        representatives(s, legal, rep, flags & kMerge);
        for (std::size_t i = 0; i < legal.size(); ++i) {
            int value = -1;
            for (std::size_t j = 0; j < i; ++j)
                if (legal[j] == rep[i]) value = out.values[j];
            if (value < 0) value = s.after(legal[i], -kInf, kInf, true);
            out.cards.push_back(legal[i]);
            out.values.push_back(value);
        }
        out.nodes = s.nodes();
        return out;
    }
    out.value = s.exact();
    if (what == 1) {
        representatives(s, legal, rep, flags & kMerge);
        const bool minimising = !(s.mover() & 1);
        std::vector<char> achieves(legal.size(), 0);
        for (std::size_t i = 0; i < legal.size(); ++i) {
            bool found = false;
            for (std::size_t j = 0; j < i; ++j)
                if (legal[j] == rep[i]) {
                    achieves[i] = achieves[j];
                    found = true;
                }
            if (!found) {
                const int v = out.value;
                achieves[i] = minimising ? s.after(legal[i], v, v + 1, false) <= v
                                         : s.after(legal[i], v - 1, v, false) >= v;
            }
            if (achieves[i]) out.best.push_back(legal[i]);
        }
    }
    out.nodes = s.nodes();
    return out;
}

}  // namespace deepsix
