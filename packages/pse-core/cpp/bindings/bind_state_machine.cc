#include <cstring>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "pse_core/completion.h"
#include "pse_core/errors.h"
#include "pse_core/stepper.h"
#include "pse_core/stepper_delta.h"

namespace pse::py {

namespace {

// One C++ type per Python class, so that each can be subclassed in Python.
struct PhraseNode : StateMachine {
  PhraseNode() : StateMachine(Kind::kPhrase) {}
};
struct CharacterNode : StateMachine {
  CharacterNode() : StateMachine(Kind::kCharacter) {}
};
struct StringNode : StateMachine {
  StringNode() : StateMachine(Kind::kString) {}
};
struct NumberNode : StateMachine {
  NumberNode() : StateMachine(Kind::kNumber) {}
};
struct LoopNode : StateMachine {
  LoopNode() : StateMachine(Kind::kLoop) {}
};
struct WaitForNode : StateMachine {
  WaitForNode() : StateMachine(Kind::kWaitFor) {}
};
struct DfaNode : StateMachine {
  DfaNode() : StateMachine(Kind::kDfa) {}
};
struct RefNode : StateMachine {
  RefNode() : StateMachine(Kind::kRef) {}
};

using Graph = std::vector<std::pair<StateKey, std::vector<std::pair<SMPtr, StateKey>>>>;

Graph to_graph(nb::handle dict) {
  if (!nb::isinstance<nb::dict>(dict))
    throw nb::type_error("state_graph must be a dict mapping state ids to lists of edges");
  Graph graph;
  for (auto [key, edges] : nb::borrow<nb::dict>(dict)) {
    std::vector<std::pair<SMPtr, StateKey>> out;
    for (nb::handle edge : edges) {
      if (nb::len(edge) != 2)
        throw nb::type_error("an edge is a (StateMachine, target_state) pair");
      nb::object machine = edge[0];
      if (!nb::isinstance<StateMachine>(machine))
        throw nb::type_error(("edge from state " + nb::cast<std::string>(nb::repr(key)) +
                              " does not hold a StateMachine")
                                 .c_str());
      out.emplace_back(nb::cast<SMPtr>(machine), to_key(edge[1]));
    }
    graph.emplace_back(to_key(key), std::move(out));
  }
  return graph;
}

std::vector<StateKey> to_keys(nb::handle seq) {
  std::vector<StateKey> keys;
  for (nb::handle h : seq) keys.push_back(to_key(h));
  return keys;
}

nb::dict graph_dict(const StateMachine& sm) {
  nb::dict d;
  for (std::size_t i = 0; i < sm.states.size(); ++i) {
    if (sm.states[i].edges.empty()) continue;
    nb::list edges;
    for (const Edge& e : sm.states[i].edges)
      edges.append(nb::make_tuple(e.machine, from_key(sm.state_keys[e.target])));
    d[from_key(sm.state_keys[i])] = edges;
  }
  return d;
}

std::string charset(nb::handle h) {
  if (h.is_none()) return {};
  if (nb::isinstance<nb::str>(h)) return nb::cast<std::string>(h);
  std::string out;
  for (nb::handle c : h) out += nb::cast<std::string>(c);
  return out;
}

nb::set charset_set(const CharSet& set) {
  nb::set out;
  for (std::uint32_t cp : set.points) {
    std::string s;
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else {
      PyObject* o = PyUnicode_FromOrdinal(static_cast<int>(cp));
      out.add(nb::steal(o));
      continue;
    }
    out.add(nb::str(s.c_str()));
  }
  return out;
}

std::int32_t state_index(const StateMachine& sm, nb::handle state) {
  if (state.is_none()) return -1;
  if (sm.kind != Kind::kGraph) return -1;
  auto i = sm.find_state(to_key(state));
  if (!i) throw GrammarError("state " + to_key(state).repr() + " is not in this state machine");
  return *i;
}

using Self = nb::pointer_and_handle<StateMachine>;

SMPtr self_ptr(Self self) { return nb::cast<SMPtr>(self.h); }

std::uint32_t bound(nb::handle h, std::uint32_t none_value) {
  if (h.is_none()) return none_value;
  std::int64_t v = nb::cast<std::int64_t>(h);
  if (v < 0) return none_value;
  return static_cast<std::uint32_t>(v);
}

void common(StateMachine& sm, bool is_optional, nb::handle identifier) {
  sm.is_optional = is_optional;
  if (!identifier.is_none()) sm.identifier = nb::cast<std::string>(identifier);
}

/// The steppers that consumed all of `token` (one that finished early and left
/// part of it as remaining input is not a result; see docs/concepts/token-healing.md).
nb::list advance_basic(nb::handle steppers, nb::handle token) {
  std::string bytes = to_bytes(token);
  nb::list out;
  for (nb::handle h : steppers) {
    const Stepper& s = nb::cast<const Stepper&>(h);
    for (const Stepper& n : s.consume(bytes))
      if (!n.path->remaining) out.append(wrap_stepper(n, h));
  }
  return out;
}

}  // namespace

nb::object make_dfa_machine(const std::vector<std::int32_t>& table,
                            std::vector<std::uint8_t> accepting, std::int32_t start) {
  auto node = std::make_shared<DfaNode>();
  node->set_dfa(table, std::move(accepting), start);
  return nb::cast(SMPtr(std::move(node)));
}

void bind_state_machine(nb::module_& m) {
  nb::class_<StateMachine>(m, "StateMachine",
                           "A grammar node: a graph of states whose edges are nested machines.")
      .def(
          "__init__",
          [](StateMachine* self, nb::handle state_graph, nb::handle start_state,
             nb::handle end_states, bool is_optional, bool is_case_sensitive,
             nb::handle identifier) {
            new (self) StateMachine(Kind::kGraph);
            common(*self, is_optional, identifier);
            self->is_case_sensitive = is_case_sensitive;
            std::vector<StateKey> ends =
                end_states.is_none() ? std::vector<StateKey>{StateKey{std::string("$")}}
                                     : to_keys(end_states);
            if (!state_graph.is_none()) {
              self->set_graph(to_graph(state_graph), to_key(start_state), ends);
            } else {
              self->state_keys = {to_key(start_state)};
              self->states.assign(1, GraphState{});
              self->start = 0;
              for (const StateKey& k : ends) self->states[self->intern_state(k)].is_end = true;
              self->end_keys = ends;
            }
          },
          nb::arg("state_graph").none() = nb::none(), nb::arg("start_state") = 0,
          nb::arg("end_states").none() = nb::none(), nb::arg("is_optional") = false,
          nb::arg("is_case_sensitive") = true, nb::arg("identifier").none() = nb::none())
      .def_prop_rw(
          "state_graph", [](StateMachine& s) { return graph_dict(s); },
          [](StateMachine& s, nb::handle g) {
            s.set_graph(to_graph(g), s.state_keys.at(s.start), s.end_keys);
          })
      .def_prop_rw(
          "start_state", [](StateMachine& s) { return from_key(s.state_keys.at(s.start)); },
          [](StateMachine& s, nb::handle k) {
            s.start = s.intern_state(to_key(k));
            s.invalidate();
          })
      .def_prop_rw(
          "end_states",
          [](StateMachine& s) {
            nb::list out;
            for (const StateKey& k : s.end_keys) out.append(from_key(k));
            return out;
          },
          [](StateMachine& s, nb::handle ends) {
            s.end_keys = to_keys(ends);
            for (auto& st : s.states) st.is_end = false;
            for (const StateKey& k : s.end_keys) s.states[s.intern_state(k)].is_end = true;
            s.invalidate();
          })
      .def_prop_rw(
          "is_optional", [](StateMachine& s) { return s.is_optional; },
          [](StateMachine& s, bool v) {
            s.is_optional = v;
            s.invalidate();
          })
      .def_rw("is_case_sensitive", &StateMachine::is_case_sensitive)
      .def_rw("identifier", &StateMachine::identifier, nb::arg().none())
      .def_prop_ro("kind", [](StateMachine& s) { return kind_name(s.kind); })
      .def(
          "get_new_stepper",
          [](Self self, nb::handle state) {
            prepare(self.p);
            return wrap_stepper(Stepper::start(self_ptr(self), state_index(*self.p, state), true));
          },
          nb::arg("state").none() = nb::none())
      .def(
          "get_steppers",
          [](Self self, nb::handle state) {
            prepare(self.p);
            bool raw = !self.p->external;  // an overriding class steps with its own stepper
            return wrap_steppers(
                Stepper::start(self_ptr(self), state_index(*self.p, state), raw).branch());
          },
          nb::arg("state").none() = nb::none())
      .def(
          "get_edges",
          [](StateMachine& self, nb::handle state) {
            nb::list out;
            if (self.kind != Kind::kGraph) return out;
            for (const Edge& e : self.states.at(state_index(self, state)).edges)
              out.append(nb::make_tuple(e.machine, from_key(self.state_keys[e.target])));
            return out;
          },
          nb::arg("state"))
      .def(
          "get_transitions",
          [](StateMachine& self, const Stepper& stepper) {
            nb::list out;
            if (self.kind != Kind::kGraph || stepper.frame->node != &self) return out;
            for (const Edge& e : self.states.at(stepper.frame->state).edges)
              out.append(nb::make_tuple(wrap_stepper(Stepper::start(e.machine, -1, true)),
                                        from_key(self.state_keys[e.target])));
            return out;
          },
          nb::arg("stepper"))
      .def(
          "advance_stepper",
          [](StateMachine&, nb::handle stepper, nb::handle token) {
            return wrap_steppers(nb::cast<const Stepper&>(stepper).consume(to_bytes(token)),
                                 stepper);
          },
          nb::arg("stepper"), nb::arg("token"))
      .def(
          "branch_stepper",
          [](StateMachine&, nb::handle stepper, nb::handle token) {
            std::optional<std::uint8_t> first;
            if (!token.is_none()) {
              std::string b = to_bytes(token);
              if (!b.empty()) first = static_cast<std::uint8_t>(b[0]);
            }
            return wrap_steppers(nb::cast<const Stepper&>(stepper).branch(first), stepper);
          },
          nb::arg("stepper"), nb::arg("token").none() = nb::none())
      .def(
          "advance_all_steppers",
          [](StateMachine&, nb::handle steppers, nb::handle token) {
            return advance_basic(steppers, token);
          },
          nb::arg("steppers"), nb::arg("token"))
      .def_static(
          "advance_all",
          [](const std::vector<Stepper>& steppers, nb::handle token, const TrieMap* vocab,
             bool token_healing) {
            std::string bytes = to_bytes(token);
            std::vector<StepperDelta> out;
            for (const Stepper& s : steppers) {
              PathPtr p = s.path;
              if (s.frame->depth != p->root_depth) {
                auto q = std::make_shared<Path>(*p);
                q->root_depth = s.frame->depth;
                p = q;
              }
              // A stepper that left part of the token unconsumed is a result only
              // when healing completed it (docs/concepts/token-healing.md).
              for (StepperDelta& d : advance_path(p, bytes, token_healing ? vocab : nullptr))
                if (d.was_healed || !d.stepper.path->remaining) out.push_back(std::move(d));
            }
            return out;
          },
          nb::arg("steppers"), nb::arg("token"), nb::arg("vocab").none() = nb::none(),
          nb::arg("token_healing") = true)
      .def_static("advance_all_basic", &advance_basic, nb::arg("steppers"), nb::arg("token"))
      .def("seal", &StateMachine::seal,
           "Own the targets of the recursive references below and make those references "
           "back-edges, so the finished grammar has no reference cycle and is freed with "
           "this root. Returns the number of references sealed.")
      .def(
          "accepts_nothing",
          [](StateMachine& self) {
            prepare(&self);  // mark the Python-defined nodes, as an engine would
            return accepts_nothing(&self);
          },
          "True when this machine provably matches no string (an empty language); False when "
          "it matches something or that is unknown (Python-defined nodes, grammars).")
      .def("__repr__", [](StateMachine& s) { return s.describe(); });

  nb::class_<PhraseNode, StateMachine>(m, "PhraseStateMachine", "Matches an exact string.")
      .def(
          "__init__",
          [](PhraseNode* self, nb::handle phrase, bool is_optional, bool is_case_sensitive,
             nb::handle identifier) {
            std::string text = to_bytes(phrase);
            if (text.empty()) throw GrammarError("PhraseStateMachine needs a non-empty phrase");
            new (self) PhraseNode();
            self->phrase = text;
            self->is_case_sensitive = is_case_sensitive;
            common(*self, is_optional, identifier);
          },
          nb::arg("phrase"), nb::arg("is_optional") = false, nb::arg("is_case_sensitive") = true,
          nb::arg("identifier").none() = nb::none())
      .def_prop_ro("phrase", [](PhraseNode& s) { return to_text(s.phrase); });

  nb::class_<CharacterNode, StateMachine>(m, "CharacterStateMachine",
                                          "Matches a run of characters from a set.")
      .def(
          "__init__",
          [](CharacterNode* self, nb::handle whitelist, nb::handle graylist, nb::handle blacklist,
             nb::handle char_min, nb::handle char_limit, bool is_optional, bool case_sensitive,
             nb::handle identifier) {
            new (self) CharacterNode();
            bool fold = !case_sensitive;
            self->is_case_sensitive = case_sensitive;
            self->whitelist = CharSet::from_utf8(charset(whitelist), fold);
            self->graylist = CharSet::from_utf8(charset(graylist), fold);
            self->blacklist = CharSet::from_utf8(charset(blacklist), fold);
            self->char_min = bound(char_min, 0);
            self->char_limit = bound(char_limit, 0);
            if (self->char_limit && self->char_limit < std::max<std::uint32_t>(self->char_min, 1))
              throw GrammarError("char_limit " + std::to_string(self->char_limit) +
                                 " is below char_min " + std::to_string(self->char_min));
            common(*self, is_optional, identifier);
          },
          nb::arg("whitelist_charset").none() = "", nb::arg("graylist_charset").none() = "",
          nb::arg("blacklist_charset").none() = "", nb::arg("char_min").none() = nb::none(),
          nb::arg("char_limit").none() = nb::none(), nb::arg("is_optional") = false,
          nb::arg("case_sensitive") = true, nb::arg("identifier").none() = nb::none())
      .def_prop_ro("charset", [](CharacterNode& s) { return charset_set(s.whitelist); })
      .def_prop_ro("graylist_charset", [](CharacterNode& s) { return charset_set(s.graylist); })
      .def_prop_ro("blacklist_charset", [](CharacterNode& s) { return charset_set(s.blacklist); })
      .def_prop_ro("char_min", [](CharacterNode& s) { return s.char_min; })
      .def_prop_ro("char_limit", [](CharacterNode& s) { return s.char_limit; });

  nb::class_<StringNode, StateMachine>(m, "StringStateMachine", "Matches a JSON string literal.")
      .def(
          "__init__",
          [](StringNode* self, nb::handle min_length, nb::handle max_length, bool is_optional,
             nb::handle identifier) {
            new (self) StringNode();
            self->min_length = bound(min_length, 0);
            self->max_length = bound(max_length, UINT32_MAX);
            if (self->min_length > self->max_length)
              throw GrammarError("min_length is greater than max_length");
            common(*self, is_optional, identifier);
          },
          nb::arg("min_length").none() = nb::none(), nb::arg("max_length").none() = nb::none(),
          nb::arg("is_optional") = false, nb::arg("identifier").none() = nb::none())
      .def_prop_ro("min_length", [](StringNode& s) { return s.min_length; })
      .def_prop_ro("max_length", [](StringNode& s) -> nb::object {
        if (s.max_length == UINT32_MAX) return nb::none();
        return nb::int_(s.max_length);
      });

  nb::class_<NumberNode, StateMachine>(m, "NumberStateMachine", "Matches a JSON number.")
      .def(
          "__init__",
          [](NumberNode* self, bool is_optional, nb::handle identifier, bool integer_only,
             bool allow_negative) {
            new (self) NumberNode();
            self->integer_only = integer_only;
            self->allow_negative = allow_negative;
            common(*self, is_optional, identifier);
          },
          nb::arg("is_optional") = false, nb::arg("identifier").none() = nb::none(),
          nb::arg("integer_only") = false, nb::arg("allow_negative") = true)
      .def_prop_ro("integer_only", [](NumberNode& s) { return s.integer_only; })
      .def_prop_ro("allow_negative", [](NumberNode& s) { return s.allow_negative; });

  nb::class_<LoopNode, StateMachine>(m, "LoopStateMachine",
                                     "Repeats a machine, with an optional separator.")
      .def(
          "__init__",
          [](LoopNode* self, SMPtr machine, std::int64_t min_count, std::int64_t max_count,
             SMPtr separator, bool is_optional, nb::handle identifier) {
            if (!machine) throw GrammarError("LoopStateMachine needs a state machine to repeat");
            if (min_count < 0) throw GrammarError("min_loop_count must be >= 0");
            if (max_count >= 0 && max_count < std::max<std::int64_t>(min_count, 1))
              throw GrammarError("max_loop_count must be -1 or at least max(min_loop_count, 1)");
            new (self) LoopNode();
            self->child = std::move(machine);
            self->separator = std::move(separator);
            self->min_count = static_cast<std::uint32_t>(min_count);
            self->max_count = max_count < 0 ? UINT32_MAX : static_cast<std::uint32_t>(max_count);
            common(*self, is_optional, identifier);
          },
          nb::arg("state_machine"), nb::arg("min_loop_count") = 1, nb::arg("max_loop_count") = -1,
          nb::arg("separator").none() = nb::none(), nb::arg("is_optional") = false,
          nb::arg("identifier").none() = nb::none())
      .def_prop_ro("state_machine", [](LoopNode& s) { return s.child; })
      .def_prop_ro("separator", [](LoopNode& s) { return s.separator; })
      .def_prop_ro("min_loop_count", [](LoopNode& s) { return s.min_count; })
      .def_prop_ro("max_loop_count", [](LoopNode& s) -> std::int64_t {
        return s.max_count == UINT32_MAX ? -1 : static_cast<std::int64_t>(s.max_count);
      });

  nb::class_<WaitForNode, StateMachine>(m, "WaitFor", "Free text, then a machine.")
      .def(
          "__init__",
          [](WaitForNode* self, SMPtr machine, std::int32_t buffer_length, bool strict,
             bool is_optional, nb::handle identifier) {
            if (!machine) throw GrammarError("WaitFor needs a state machine to wait for");
            new (self) WaitForNode();
            self->child = std::move(machine);
            self->buffer_length = buffer_length < 0 ? -1 : buffer_length;
            self->strict = strict;
            common(*self, is_optional, identifier);
          },
          nb::arg("state_machine"), nb::arg("buffer_length") = -1, nb::arg("strict") = false,
          nb::arg("is_optional") = false, nb::arg("identifier").none() = nb::none())
      .def_prop_ro("state_machine", [](WaitForNode& s) { return s.child; })
      .def_prop_ro("buffer_length", [](WaitForNode& s) { return s.buffer_length; })
      .def_prop_ro("strict", [](WaitForNode& s) { return s.strict; });

  nb::class_<DfaNode, StateMachine>(m, "DfaStateMachine",
                                    "A byte-level automaton: patterns, formats, bounded numbers.")
      .def(
          "__init__",
          [](DfaNode* self, nb::handle transitions, std::vector<std::uint8_t> accepting,
             std::int32_t start, bool is_optional, nb::handle identifier) {
            std::vector<std::int32_t> table;
            if (nb::isinstance<nb::bytes>(transitions)) {
              // Packed rows: native-endian int32, 256 per state (the compiler's form).
              nb::bytes packed = nb::borrow<nb::bytes>(transitions);
              if (packed.size() != accepting.size() * 256 * sizeof(std::int32_t))
                throw GrammarError("packed DFA rows need 256 int32 transitions per state");
              table.resize(accepting.size() * 256);
              std::memcpy(table.data(), packed.c_str(), packed.size());
            } else {
              table.reserve(accepting.size() * 256);
              for (nb::handle row : transitions) {
                std::size_t before = table.size();
                for (nb::handle t : row) table.push_back(nb::cast<std::int32_t>(t));
                if (table.size() - before != 256)
                  throw GrammarError("each DFA row needs 256 transitions (one per byte)");
              }
            }
            new (self) DfaNode();
            self->set_dfa(table, std::move(accepting), start);
            common(*self, is_optional, identifier);
          },
          nb::arg("transitions"), nb::arg("accepting"), nb::arg("start") = 0,
          nb::arg("is_optional") = false, nb::arg("identifier").none() = nb::none(),
          "`transitions[s][b]` is the state after byte b in state s, or -1.")
      .def_prop_ro("state_count", [](DfaNode& s) { return s.accepting.size(); })
      .def_prop_ro("byte_classes", [](DfaNode& s) { return s.classes; });

  nb::class_<RefNode, StateMachine>(m, "RefStateMachine",
                                    "A forward reference, for recursive grammars.")
      .def(
          "__init__",
          [](RefNode* self, SMPtr target) {
            new (self) RefNode();
            self->ref_target = std::move(target);
          },
          nb::arg("target").none() = nb::none())
      .def(
          "set_target",
          [](RefNode& self, SMPtr target) {
            if (!target) throw GrammarError("RefStateMachine target must be a StateMachine");
            self.ref_target = std::move(target);
            self.ref_sealed = nullptr;
            self.invalidate();
          },
          nb::arg("target"))
      .def_prop_ro(
          "target",
          [](RefNode& s) -> nb::object {
            if (s.ref_target) return nb::cast(s.ref_target);
            const StateMachine* next = s.ref_next();  // sealed: owned by the root
            if (!next) return nb::none();
            if (auto owned = next->weak_from_this().lock())
              return nb::cast(std::const_pointer_cast<StateMachine>(owned));
            return nb::cast(const_cast<StateMachine*>(next), nb::rv_policy::reference);
          });
}

}  // namespace pse::py
