// The Python binding of the search (nanobind): positions in as plain ints, checked by
// deepsix::check() before any search; the GIL is released while searching.
#include <nanobind/nanobind.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <thread>

#include "search.hpp"

namespace nb = nanobind;
using deepsix::Position;

namespace {

Position position(const std::vector<deepsix::u64>& hands, const std::vector<int>& trick, int leader,
                  int sunk, int play_over) {
    if (hands.size() != 4) throw std::invalid_argument("a position has four hands");
    if (trick.size() > 3) throw std::invalid_argument("a trick in progress holds 0 to 3 cards");
    Position p;
    for (int s = 0; s < 4; ++s) p.hands[s] = hands[s];
    p.played = static_cast<int>(trick.size());
    for (int i = 0; i < p.played; ++i) p.trick[i] = trick[i];
    p.leader = leader;
    p.sunk = sunk;
    p.play_over = play_over;
    deepsix::check(p);
    return p;
}

void check_limits(long long node_limit, int table_bits) {
    if (node_limit < 1) throw std::invalid_argument("node_limit must be positive");
    if (table_bits < 0 || table_bits > 28) throw std::invalid_argument("table_bits must be 0 to 28");
}

deepsix::Solved run(const Position& p, int what, unsigned flags, long long node_limit, int table_bits) {
    nb::gil_scoped_release release;
    return deepsix::solve(p, what, flags, node_limit, table_bits);
}

}  // namespace

NB_MODULE(_kernel, m) {
    m.doc() = "deepsix's double-dummy search in C++ (see deepsix.search.solver).";
    nb::exception<deepsix::BudgetExceeded>(m, "BudgetExceeded");
    m.attr("ALL") = static_cast<unsigned>(deepsix::kAll);
    m.attr("FLAGS") = nb::make_tuple("table", "squeeze", "runs", "merge", "order", "killers",
                                     "bounds", "guess", "two", "deepen", "etc");
    m.def(
        "solve",
        [](const std::vector<deepsix::u64>& hands, const std::vector<int>& trick, int leader, int sunk,
           int play_over, int what, unsigned flags, long long node_limit, int table_bits) {
            check_limits(node_limit, table_bits);
            if (what < 0 || what > 2) throw std::invalid_argument("what must be 0, 1 or 2");
            const Position p = position(hands, trick, leader, sunk, play_over);
            deepsix::Solved s = run(p, what, flags, node_limit, table_bits);
            return nb::make_tuple(s.value, s.total, s.best, s.cards, s.values, s.nodes);
        },
        nb::arg("hands"), nb::arg("trick"), nb::arg("leader"), nb::arg("sunk"), nb::arg("play_over"),
        nb::arg("what"), nb::arg("flags"), nb::arg("node_limit"), nb::arg("table_bits"),
        "(value, total, best, cards, values, nodes) of one position: what 0 = the value, 1 = "
        "and its best cards, 2 = every legal card's value.");
    m.def(
        "score",
        [](const std::vector<deepsix::u64>& hands, const std::vector<int>& trick, int leader, int sunk,
           int play_over, const std::vector<int>& outcome, unsigned flags, long long node_limit,
           int table_bits) {
            check_limits(node_limit, table_bits);
            const Position p = position(hands, trick, leader, sunk, play_over);
            int value;
            long long nodes;
            {
                nb::gil_scoped_release release;
                deepsix::Search s(p, flags, node_limit, table_bits);
                value = s.score(outcome);
                nodes = s.nodes();
            }
            return nb::make_tuple(value, nodes);
        },
        nb::arg("hands"), nb::arg("trick"), nb::arg("leader"), nb::arg("sunk"), nb::arg("play_over"),
        nb::arg("outcome"), nb::arg("flags"), nb::arg("node_limit"), nb::arg("table_bits"),
        "(score, nodes): the hand's score from one position under best play for it, outcome[f] "
        "being the score if North-South take 10 f more points (see deepsix.search._score).");
    m.def(
        "solve_many",
        [](const std::vector<std::vector<deepsix::u64>>& hands, const std::vector<std::vector<int>>& tricks,
           const std::vector<int>& leaders, int sunk, int play_over, int what, unsigned flags,
           long long node_limit, int table_bits, int threads) {
            check_limits(node_limit, table_bits);
            if (what < 0 || what > 2) throw std::invalid_argument("what must be 0, 1 or 2");
            if (threads < 1 || threads > 256) throw std::invalid_argument("threads must be 1 to 256");
            const std::size_t n = hands.size();
            if (tricks.size() != n || leaders.size() != n)
                throw std::invalid_argument("hands, tricks and leaders differ in length");
            std::vector<Position> ps;
            for (std::size_t i = 0; i < n; ++i)
                ps.push_back(position(hands[i], tricks[i], leaders[i], sunk, play_over));
            std::vector<deepsix::Solved> out(n);
            std::vector<char> over(n, 0);
            {
                nb::gil_scoped_release release;
                std::vector<std::thread> pool;
                const std::size_t workers = std::min<std::size_t>(threads, n ? n : 1);
                for (std::size_t w = 0; w < workers; ++w)
                    pool.emplace_back([&, w]() {
                        for (std::size_t i = w; i < n; i += workers) {
                            try {
                                out[i] = deepsix::solve(ps[i], what, flags, node_limit, table_bits);
                            } catch (const deepsix::BudgetExceeded&) {
                                over[i] = 1;
                            }
                        }
                    });
                for (auto& t : pool) t.join();
            }
            nb::list results;
            for (std::size_t i = 0; i < n; ++i) {
                if (over[i])
                    results.append(nb::none());
                else
                    results.append(nb::make_tuple(out[i].value, out[i].total, out[i].best, out[i].cards,
                                                  out[i].values, out[i].nodes));
            }
            return results;
        },
        nb::arg("hands"), nb::arg("tricks"), nb::arg("leaders"), nb::arg("sunk"), nb::arg("play_over"),
        nb::arg("what"), nb::arg("flags"), nb::arg("node_limit"), nb::arg("table_bits"),
        nb::arg("threads"),
        "solve() of many positions (one sunk suit and rule) on ``threads`` threads, the GIL "
        "released; None for a position over its node budget.");
}
