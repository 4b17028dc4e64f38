#include <nanobind/stl/pair.h>

#include <algorithm>

#include "automata/byte_lowering.h"
#include "automata/number_dfa.h"
#include "automata/range_dfa.h"
#include "automata/regex.h"
#include "bindings.h"

namespace pse::py {

namespace {

/// (rows, accepting) as the Python CpDfa holds them: lists of (lo, hi, target).
nb::tuple to_python(const RangeDfa& dfa) {
  nb::list rows;
  for (const auto& row : dfa.transitions) {
    nb::list out;
    for (const auto& r : row) out.append(nb::make_tuple(r[0], r[1], r[2]));
    rows.append(out);
  }
  nb::list accepting;
  for (bool a : dfa.accepting) accepting.append(a);
  return nb::make_tuple(rows, accepting);
}

RangeDfa from_python(nb::handle rows, nb::handle accepting) {
  RangeDfa dfa;
  for (nb::handle flag : accepting) dfa.accepting.push_back(nb::cast<bool>(flag));
  const auto n = static_cast<std::int32_t>(dfa.accepting.size());
  for (nb::handle row : rows) {
    std::vector<std::array<std::int32_t, 3>> out;
    for (nb::handle r : row) {
      std::array<std::int32_t, 3> range{nb::cast<std::int32_t>(r[0]), nb::cast<std::int32_t>(r[1]),
                                        nb::cast<std::int32_t>(r[2])};
      if (range[2] < 0 || range[2] >= n || range[0] > range[1])
        throw nb::value_error("a DFA move is (lo, hi, target) with lo <= hi and a valid target");
      out.push_back(range);
    }
    dfa.transitions.push_back(std::move(out));
  }
  if (dfa.transitions.size() != dfa.accepting.size())
    throw nb::value_error("a DFA needs one accepting flag per state");
  if (dfa.transitions.empty()) throw nb::value_error("a DFA needs a start state");
  return dfa;
}

/// (packed native-endian int32 rows of 256, accepting flags), or None when too large.
nb::object to_python(const std::optional<ByteTable>& table) {
  if (!table) return nb::none();
  nb::bytes packed(reinterpret_cast<const char*>(table->cells.data()),
                   table->cells.size() * sizeof(std::int32_t));
  nb::list accepting;
  for (std::uint8_t a : table->accepting) accepting.append(a != 0);
  return nb::make_tuple(packed, accepting);
}

/// The code points of each string of `names` (lone surrogates included).
std::vector<std::vector<std::int32_t>> code_points(nb::handle names, const char* caller) {
  std::vector<std::vector<std::int32_t>> points;
  for (nb::handle name : names) {
    if (!PyUnicode_Check(name.ptr())) throw nb::type_error((std::string(caller) + " takes strings").c_str());
    Py_ssize_t n = PyUnicode_GetLength(name.ptr());
    std::vector<std::int32_t> cps(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i)
      cps[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(PyUnicode_ReadChar(name.ptr(), i));
    points.push_back(std::move(cps));
  }
  return points;
}

/// The compile_regex input for `pattern` (code points, lone surrogates
/// included); `property` resolves \\p{...} and must outlive the input.
RegexInput regex_input(nb::handle pattern, bool anchored, nb::handle digit_positions,
                       const nb::callable& property) {
  if (!PyUnicode_Check(pattern.ptr())) throw nb::type_error("a regex pattern must be a str");
  RegexInput in;
  Py_ssize_t n = PyUnicode_GetLength(pattern.ptr());
  in.pattern.resize(static_cast<std::size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i)
    in.pattern[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(PyUnicode_ReadChar(pattern.ptr(), i));
  in.unicode_digit.assign(in.pattern.size(), false);
  for (nb::handle pos : digit_positions) {
    auto k = nb::cast<std::size_t>(pos);
    if (k < in.unicode_digit.size()) in.unicode_digit[k] = true;
  }
  in.anchored = anchored;
  in.property = [&property, pattern](std::size_t begin, std::size_t end) {
    nb::object name = nb::steal(PySequence_GetSlice(pattern.ptr(), static_cast<Py_ssize_t>(begin),
                                                    static_cast<Py_ssize_t>(end)));
    if (!name.is_valid()) throw nb::python_error();
    CodePointSet out;
    for (nb::handle r : property(name)) out.push_back({nb::cast<std::int32_t>(r[0]), nb::cast<std::int32_t>(r[1])});
    return out;
  };
  return in;
}

NumberConstraints number_constraints(const std::vector<std::pair<std::string, unsigned>>& bounds,
                                     std::uint64_t multiple_p, std::uint64_t multiple_q,
                                     int exponent_limit, std::uint64_t max_remainders,
                                     std::size_t max_states, bool negate_multiple) {
  NumberConstraints nc;
  for (const auto& [decimal, allowed] : bounds) nc.bounds.push_back({decimal, allowed});
  nc.multiple_p = multiple_p;
  nc.multiple_q = multiple_q;
  nc.negate_multiple = negate_multiple;
  nc.exponent_limit = exponent_limit;
  nc.max_remainders = max_remainders;
  nc.max_states = max_states;
  return nc;
}

/// One lowering of a code-point DFA to byte rows, bound as `name`.
void bind_lowering(nb::module_& m, const char* name,
                   std::optional<ByteTable> (*lower)(const RangeDfa&, std::size_t), const char* doc) {
  m.def(
      name,
      [lower](nb::handle transitions, nb::handle accepting, std::size_t max_states) {
        RangeDfa dfa = from_python(transitions, accepting);
        std::optional<ByteTable> out;
        {
          nb::gil_scoped_release release;
          out = lower(dfa, max_states);
        }
        return to_python(out);
      },
      nb::arg("transitions"), nb::arg("accepting"), nb::arg("max_states"), doc);
}

}  // namespace

void bind_automata(nb::module_& m) {
  m.def(
      "literal_dfa",
      [](nb::handle names) {
        auto points = code_points(names, "literal_dfa");
        RangeDfa out;
        {
          nb::gil_scoped_release release;
          out = literal_dfa(points);
        }
        return to_python(out);
      },
      nb::arg("names"), "The minimal DFA (code-point ranges per state) accepting exactly `names`.");
  m.def(
      "literal_json_string",
      [](nb::handle names, bool exclude, std::size_t max_states) -> nb::object {
        auto points = code_points(names, "literal_json_string");
        std::optional<ByteTable> out;
        {
          nb::gil_scoped_release release;
          RangeDfa dfa = literal_dfa(points);
          out = lower_json_string(exclude ? minimize(complement(dfa)) : dfa, max_states);
        }
        if (!out) return nb::none();
        return make_dfa_machine(out->cells, std::move(out->accepting), 0);
      },
      nb::arg("names"), nb::arg("exclude"), nb::arg("max_states"),
      "A DfaStateMachine reading the JSON string literals that decode to one of `names`\n"
      "(exclude: to none of them), built in one call (literal_dfa, complement,\n"
      "lower_json_string, the machine), or None past max_states rows.");
  m.def(
      "minimize_dfa",
      [](nb::handle transitions, nb::handle accepting) {
        RangeDfa dfa = from_python(transitions, accepting);
        RangeDfa out;
        {
          nb::gil_scoped_release release;
          out = minimize(dfa);
        }
        return to_python(out);
      },
      nb::arg("transitions"), nb::arg("accepting"),
      "The minimal DFA equivalent to one given as sorted (lo, hi, target) ranges per\n"
      "state (start state 0): useless states dropped, equivalent states merged,\n"
      "states numbered breadth-first, adjacent ranges with one target joined.");
  m.def(
      "regex_dfas",
      [](nb::handle pattern, bool anchored, nb::handle digit_positions, nb::callable property) -> nb::object {
        RegexInput in = regex_input(pattern, anchored, digit_positions, property);
        auto result = compile_regex(in);  // the GIL is held: \p{...} calls back into Python
        if (auto* error = std::get_if<RegexError>(&result)) {
          static constexpr const char* kKinds[] = {"syntax", "lookahead", "nfa", "dfa"};
          return nb::make_tuple(nb::none(), kKinds[error->kind], error->what, error->offset);
        }
        nb::list parts;
        for (const RegexPart& part : std::get<std::vector<RegexPart>>(result)) {
          nb::tuple dfa = to_python(part.dfa);
          parts.append(nb::make_tuple(dfa[0], dfa[1], part.negative));
        }
        return nb::make_tuple(parts, nb::none(), nb::none(), nb::none());
      },
      nb::arg("pattern"), nb::arg("anchored"), nb::arg("digit_positions"), nb::arg("unicode_property"),
      "Compile an ECMA-262 pattern (pse.automata's dialect) to minimal code-point DFAs:\n"
      "(parts, None, None, None) where parts are (transitions, accepting, negative), the\n"
      "pattern's DFA first, then one per leading lookahead; or (None, kind, what, offset)\n"
      "with kind 'syntax' (what at offset), 'lookahead' (not right after a leading ^),\n"
      "'nfa' or 'dfa' (too large). digit_positions: offsets of non-ASCII characters\n"
      "str.isdigit() accepts; unicode_property(name) resolves \\p{name} to (lo, hi) ranges.");
  m.def(
      "pattern_json_string",
      [](nb::handle pattern, nb::handle digit_positions, nb::callable property, std::int64_t min_length,
         std::int64_t max_length, std::int64_t max_length_states, std::size_t max_states) -> nb::object {
        RegexInput in = regex_input(pattern, false, digit_positions, property);
        auto result = compile_regex(in);  // the GIL is held: \p{...} calls back into Python
        auto* parts = std::get_if<std::vector<RegexPart>>(&result);
        if (!parts || parts->size() != 1) return nb::none();  // an error or lookaheads
        RangeDfa dfa = std::move(parts->front().dfa);
        const bool lengths = min_length > 0 || max_length >= 0;
        const std::int64_t cap = max_length >= 0 ? max_length : min_length;
        if (lengths && (cap + 1) * static_cast<std::int64_t>(dfa.transitions.size()) > max_length_states)
          return nb::none();
        std::optional<ByteTable> table;
        {
          nb::gil_scoped_release release;
          if (lengths) dfa = with_length(dfa, min_length, max_length);
          if (std::any_of(dfa.accepting.begin(), dfa.accepting.end(), [](bool a) { return a; }))
            table = lower_json_string(dfa, max_states);
        }
        if (!table) return nb::none();
        return make_dfa_machine(table->cells, std::move(table->accepting), 0);
      },
      nb::arg("pattern"), nb::arg("digit_positions"), nb::arg("unicode_property"), nb::arg("min_length"),
      nb::arg("max_length"), nb::arg("max_length_states"), nb::arg("max_states"),
      "A DfaStateMachine reading the JSON string literals whose value pattern (unanchored,\n"
      "without lookaheads) matches, of min_length..max_length code points (max_length < 0:\n"
      "no maximum), built in one call (regex, length counter, minimisation, JSON string\n"
      "lowering, the machine); None where the caller's general path decides: a pattern that\n"
      "does not compile or has lookaheads, (cap + 1) x states past max_length_states, no\n"
      "string at all, or more than max_states rows.");
  bind_lowering(m, "lower_utf8", lower_utf8,
                "Byte rows reading the UTF-8 encoding of a code-point DFA's strings (row s is\n"
                "state s): (packed int32 rows of 256 targets, accepting flags), or None past\n"
                "max_states rows.");
  bind_lowering(m, "lower_json_string", lower_json_string,
                "Byte rows reading the JSON string literals (quotes, raw UTF-8, short and\n"
                "\\uXXXX escapes, surrogate pairs) of a code-point DFA's strings (start row 0):\n"
                "(packed int32 rows of 256 targets, accepting flags), or None past max_states rows.");
  m.def(
      "number_dfa",
      [](const std::vector<std::pair<std::string, unsigned>>& bounds, std::uint64_t multiple_p,
         std::uint64_t multiple_q, int exponent_limit, std::uint64_t max_remainders,
         std::size_t max_states, bool negate_multiple) -> nb::object {
        NumberConstraints nc = number_constraints(bounds, multiple_p, multiple_q, exponent_limit,
                                                  max_remainders, max_states, negate_multiple);
        std::optional<RangeDfa> dfa;
        {
          nb::gil_scoped_release release;
          dfa = number_dfa(nc);
        }
        if (!dfa) return nb::none();
        return to_python(*dfa);
      },
      nb::arg("bounds"), nb::arg("multiple_p"), nb::arg("multiple_q"), nb::arg("exponent_limit"),
      nb::arg("max_remainders"), nb::arg("max_states"), nb::arg("negate_multiple") = false,
      "Minimal DFA (character ranges per state, accepting flags) of the JSON number\n"
      "literals meeting the bounds ((exact decimal, allowed-outcome bits: 1 less,\n"
      "2 equal, 4 greater)) and multipleOf = multiple_p / multiple_q (p = 0: none;\n"
      "negate_multiple: values that are not multiples), exponents limited to\n"
      "|x| <= exponent_limit; None past max_states states.");
  m.def(
      "number_machine",
      [](const std::vector<std::pair<std::string, unsigned>>& bounds, std::uint64_t multiple_p,
         std::uint64_t multiple_q, int exponent_limit, std::uint64_t max_remainders,
         std::size_t max_states, bool negate_multiple, std::size_t max_rows) -> nb::object {
        NumberConstraints nc = number_constraints(bounds, multiple_p, multiple_q, exponent_limit,
                                                  max_remainders, max_states, negate_multiple);
        const char* failure = nullptr;
        std::optional<ByteTable> table;
        {
          nb::gil_scoped_release release;
          std::optional<RangeDfa> dfa = number_dfa(nc);
          if (!dfa) failure = "states";
          else if (std::none_of(dfa->accepting.begin(), dfa->accepting.end(), [](bool a) { return a; }))
            failure = "empty";
          else if (!(table = lower_utf8(*dfa, max_rows))) failure = "rows";
        }
        if (failure) return nb::str(failure);
        return make_dfa_machine(table->cells, std::move(table->accepting), 0);
      },
      nb::arg("bounds"), nb::arg("multiple_p"), nb::arg("multiple_q"), nb::arg("exponent_limit"),
      nb::arg("max_remainders"), nb::arg("max_states"), nb::arg("negate_multiple"), nb::arg("max_rows"),
      "number_dfa's language as a DfaStateMachine built in one call (the DFA, its UTF-8\n"
      "rows, the machine), or why not: 'states' (past max_states), 'empty' (no number\n"
      "qualifies), 'rows' (past max_rows byte rows).");
}

}  // namespace pse::py
