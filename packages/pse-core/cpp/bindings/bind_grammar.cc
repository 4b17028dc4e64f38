// Grammars: the compiled grammar object and its state machine node.
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string_view.h>

#include <cstring>

#include "bindings.h"
#include "grammar/grammar.h"
#include "pse_core/errors.h"

namespace pse::py {

namespace {

struct GrammarNode : StateMachine {
  GrammarNode() : StateMachine(Kind::kGrammar) {}
};

grammar::TermRole role_of(const std::string& role) {
  if (role == "normal") return grammar::TermRole::kNormal;
  if (role == "ignore") return grammar::TermRole::kIgnore;
  if (role == "declared") return grammar::TermRole::kDeclared;
  throw GrammarError("unknown terminal role '" + role + "'");
}

grammar::Terminal to_terminal(nb::handle t) {
  if (nb::len(t) != 7)
    throw nb::type_error("a terminal is (name, rows, accepting, priority, literal, role, bracket)");
  grammar::Terminal out;
  out.name = nb::cast<std::string>(t[0]);
  out.role = role_of(nb::cast<std::string>(t[5]));
  out.accepting = nb::cast<std::vector<std::uint8_t>>(t[2]);
  nb::bytes rows = nb::cast<nb::bytes>(t[1]);
  if (rows.size() != out.accepting.size() * 256 * sizeof(std::int32_t))
    throw GrammarError("terminal " + out.name + ": packed rows need 256 int32 per state");
  out.table.resize(out.accepting.size() * 256);
  if (rows.size()) std::memcpy(out.table.data(), rows.c_str(), rows.size());
  out.priority = nb::cast<std::int32_t>(t[3]);
  out.literal = nb::cast<bool>(t[4]);
  out.bracket = static_cast<std::int8_t>(nb::cast<int>(t[6]));
  return out;
}

}  // namespace

void bind_grammar(nb::module_& m) {
  nb::class_<grammar::Grammar>(m, "Grammar",
                               "A compiled context-free grammar: terminal automata under an "
                               "Earley parser (see packages/pse-core/cpp/grammar/grammar.h).")
      .def(
          "__init__",
          [](grammar::Grammar* self, nb::handle terminals, nb::handle rules, std::int32_t start,
             std::vector<std::string> nonterminals, const std::string& hook) {
            std::vector<grammar::Terminal> terms;
            for (nb::handle t : terminals) terms.push_back(to_terminal(t));
            std::vector<grammar::Rule> out;
            for (nb::handle r : rules)
              out.push_back(grammar::Rule{nb::cast<std::int32_t>(r[0]),
                                          nb::cast<std::vector<std::int32_t>>(r[1])});
            grammar::Hook h = grammar::Hook::kNone;
            if (hook == "python") h = grammar::Hook::kPython;
            else if (hook == "bash") h = grammar::Hook::kBash;
            else if (!hook.empty()) throw GrammarError("unknown lexer hook '" + hook + "'");
            const auto count = static_cast<std::int32_t>(nonterminals.size());
            new (self) grammar::Grammar(std::move(terms), std::move(out), start, count,
                                        std::move(nonterminals), h);
          },
          nb::arg("terminals"), nb::arg("rules"), nb::arg("start"), nb::arg("nonterminals"),
          nb::arg("hook") = "",
          "terminals: (name, packed int32 rows, accepting, priority, literal, role, bracket);\n"
          "rules: (lhs, symbols), a symbol >= 0 a terminal index, < 0 the nonterminal ~index.")
      .def(
          "validate",
          [](const grammar::Grammar& g, nb::handle text, bool strict) {
            std::string bytes = to_bytes(text);
            nb::gil_scoped_release release;
            return g.validate(bytes, strict);
          },
          nb::arg("text"), nb::arg("strict") = false,
          "strict: `text` is a complete sentence; otherwise a prefix of one.")
      .def_prop_ro("lexer_states", &grammar::Grammar::config_count,
                   "Lexer configurations created so far (they are made on demand).");

  nb::class_<GrammarNode, StateMachine>(m, "GrammarStateMachine",
                                        "A context-free grammar as a state machine.")
      .def(
          "__init__",
          [](GrammarNode* self, std::shared_ptr<grammar::Grammar> g, bool is_optional,
             nb::handle identifier) {
            new (self) GrammarNode();
            self->grammar = std::move(g);
            self->is_optional = is_optional;
            if (!identifier.is_none()) self->identifier = nb::cast<std::string>(identifier);
          },
          nb::arg("grammar"), nb::arg("is_optional") = false, nb::arg("identifier") = nb::none());
}

}  // namespace pse::py
