#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "pse_core/errors.h"
#include "pse_core/stepper.h"
#include "pse_core/stepper_delta.h"

namespace pse::py {

namespace {

nb::object machine_of(const Stepper& s) {
  nb::object obj = nb::find(*s.frame->node);
  return obj.is_valid() ? obj : nb::none();
}

/// The documented read/write properties. A stepper of a user subclass (an
/// instance with a __dict__) holds what is assigned to them; built-in steppers
/// are immutable views of a native position.
constexpr const char* kProperties[] = {"state_machine",   "current_state",
                                       "target_state",    "sub_stepper",
                                       "history",         "consumed_character_count",
                                       "remaining_input", "_raw_value"};

nb::object instance_dict(nb::handle self) { return nb::getattr(self, "__dict__", nb::none()); }

/// The value assigned to property `name` of a user-subclass stepper, if any.
nb::object assigned(nb::handle self, const char* name) {
  nb::object d = instance_dict(self);
  if (d.is_none()) return nb::object();
  PyObject* v = PyDict_GetItemString(d.ptr(), name);
  return v ? nb::borrow(v) : nb::object();
}

const Stepper& native(nb::handle self) { return *nb::inst_ptr<Stepper>(self); }

/// A documented property: the assigned value of a user subclass, else `get`.
template <class Get>
auto readable(const char* name, Get get) {
  return [name, get](nb::handle self) -> nb::object {
    if (nb::object v = assigned(self, name); v.is_valid()) return v;
    return get(native(self));
  };
}

/// Assignment to a documented property: kept by a user-subclass stepper.
auto writable(const char* name) {
  return [name](nb::handle self, nb::handle value) {
    nb::object d = instance_dict(self);
    if (d.is_none())
      throw nb::attribute_error(
          (std::string("a built-in stepper is an immutable view of a native position; ") +
           name + " can be assigned on a Stepper subclass (consume() and branch() return new "
           "steppers)")
              .c_str());
    d[name] = value;
  };
}

/// The machine's own `stepper_value` when its Python class defines one;
/// otherwise the raw text parsed as JSON, or the raw text itself.
nb::object current_value(const Stepper& s) {
  nb::object sm = machine_of(s);
  if (s.frame->kind != Kind::kBuffer && !sm.is_none() && nb::hasattr(sm, "stepper_value"))
    return sm.attr("stepper_value")(wrap_stepper(s));
  std::string raw = s.raw_value();
  if (raw.empty()) return nb::none();
  nb::str text = to_text(raw);
  try {
    return nb::module_::import_("json").attr("loads")(text);
  } catch (nb::python_error&) {
    return text;
  }
}

/// The `stepper_class` of the stepper's machine (a Stepper subclass), if any.
nb::handle stepper_class(const Stepper& s) {
  if (s.frame->kind == Kind::kBuffer || s.frame->kind == Kind::kLexer) return nb::handle();
  nb::object sm = nb::find(*s.frame->node);
  if (!sm.is_valid()) return nb::handle();
  nb::object cls = nb::getattr(sm.type(), "stepper_class", nb::none());
  if (cls.is_none() || !PyType_Check(cls.ptr()) ||
      !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()),
                        reinterpret_cast<PyTypeObject*>(nb::type<Stepper>().ptr())))
    return nb::handle();
  return cls;  // kept alive by the machine's class
}

std::optional<std::uint8_t> first_byte(nb::handle token) {
  if (token.is_none()) return std::nullopt;
  std::string b = to_bytes(token);
  if (b.empty()) return std::nullopt;
  return static_cast<std::uint8_t>(b[0]);
}

std::size_t history_size(const Frame* f) {
  std::size_t n = 0;
  for (const Hist* h = f->hist; h; h = h->next) ++n;
  return n;
}

/// The stepper `parent` with its active sub-stepper finished as `sub`: the
/// positions after the parent moved to its target state.
std::vector<Stepper> complete(const Stepper& parent, const Stepper& sub) {
  if (parent.completed() || sub.completed() || !sub.has_reached_accept_state()) return {};
  const Frame* g = sub.frame;
  while (g && g->depth > parent.frame->depth) g = g->parent;
  if (g != parent.frame || sub.frame == parent.frame)
    throw PseError("complete_step takes a sub-stepper of this stepper (its sub_stepper, or "
                   "what that sub-stepper's consume() returned)");
  auto q = std::make_shared<Path>(*sub.path);
  q->root_depth = parent.frame->depth;
  std::vector<Stepper> out;
  for (const Stepper& b : Stepper(q, g).branch())
    if (b.frame != g && history_size(b.frame) > history_size(g)) out.push_back(b);
  return out;
}

}  // namespace

nb::object wrap_stepper(Stepper s, nb::handle like) {
  nb::handle base = nb::type<Stepper>();
  nb::handle cls;
  nb::object dict;
  if (like.is_valid() && !like.type().is(base) && native(like).frame->node == s.frame->node) {
    dict = instance_dict(like);
    if (!dict.is_none()) cls = like.type();
  }
  if (!cls.is_valid()) cls = stepper_class(s);
  if (!cls.is_valid() || cls.is(base)) return nb::cast(std::move(s));
  nb::object o = nb::inst_alloc(cls);
  new (nb::inst_ptr<Stepper>(o)) Stepper(std::move(s));
  nb::inst_mark_ready(o);
  if (dict.is_valid() && !dict.is_none()) {
    nb::dict mine = nb::borrow<nb::dict>(instance_dict(o));
    for (auto [k, v] : nb::borrow<nb::dict>(dict)) mine[k] = v;
    for (const char* name : kProperties)  // a new position: assigned state does not carry over
      if (PyDict_GetItemString(mine.ptr(), name)) PyDict_DelItemString(mine.ptr(), name);
  }
  return o;
}

nb::list wrap_steppers(const std::vector<Stepper>& steppers, nb::handle like) {
  nb::list out;
  for (const Stepper& s : steppers) out.append(wrap_stepper(s, like));
  return out;
}

void bind_stepper(nb::module_& m) {
  nb::class_<Stepper>(m, "Stepper", "A position within a state machine.")
      .def(
          "__init__",
          [](Stepper* self, SMPtr machine, nb::handle current_state) {
            if (!machine) throw nb::type_error("Stepper needs a StateMachine");
            std::int32_t state = -1;
            if (!current_state.is_none() && machine->kind == Kind::kGraph) {
              auto i = machine->find_state(to_key(current_state));
              if (!i) throw GrammarError("state " + to_key(current_state).repr() + " is not in " +
                                         machine->describe());
              state = *i;
            }
            prepare(machine.get());
            new (self) Stepper(Stepper::start(machine, state, true));
          },
          nb::arg("state_machine"), nb::arg("current_state").none() = nb::none())
      .def("clone", [](nb::handle self) { return wrap_stepper(native(self), self); })
      .def("__copy__", [](nb::handle self) { return wrap_stepper(native(self), self); })
      .def(
          "consume",
          [](nb::handle self, nb::handle token) {
            return wrap_steppers(native(self).consume(to_bytes(token)), self);
          },
          nb::arg("token"))
      .def(
          "branch",
          [](nb::handle self, nb::handle token) {
            return wrap_steppers(native(self).branch(first_byte(token)), self);
          },
          nb::arg("token").none() = nb::none(),
          "The positions this stepper can be in before its next character, one per way "
          "forward; with `token`, only those that can take its first character.")
      .def(
          "should_start_step",
          [](const Stepper& s, nb::handle token) {
            if (s.completed() || (s.is_root() && s.path->remaining)) return false;
            auto first = first_byte(token);
            return !first || !s.branch(first).empty();
          },
          nb::arg("token"),
          "Whether this stepper can take the first character of `token` (False once it "
          "holds remaining input).")
      .def(
          "should_complete_step", [](const Stepper&) { return true; },
          "Whether an accepting stepper may complete its step; built-in steppers always may.")
      .def(
          "start_step",
          [](nb::handle self, const Stepper& sub, nb::handle target_state,
             nb::handle token) -> nb::object {
            const Stepper& s = native(self);
            StateKey target = to_key(target_state);
            for (const Stepper& b : s.branch(first_byte(token))) {
              auto active = b.sub_stepper();
              auto t = b.target_state();
              if (active && active->frame->node == sub.frame->node && t && *t == target)
                return wrap_stepper(b, self);
            }
            return nb::none();
          },
          nb::arg("sub_stepper"), nb::arg("target_state"), nb::arg("token").none() = nb::none(),
          "This stepper with a transition to `target_state` through `sub_stepper`'s machine "
          "started, or None when no such transition leaves the current state.")
      .def(
          "complete_step",
          [](nb::handle self, const Stepper& sub) {
            return wrap_steppers(complete(native(self), sub), self);
          },
          nb::arg("sub_stepper"),
          "The positions after the active transition finished with the accepting "
          "`sub_stepper`: this stepper at the target state, `sub_stepper` in its history.")
      .def("get_current_value", [](nb::handle self) { return current_value(native(self)); })
      .def_prop_ro("value", [](nb::handle self) { return current_value(native(self)); })
      .def("get_raw_value", [](const Stepper& s) { return to_text(s.raw_value()); })
      .def("get_valid_continuations",
           [](const Stepper& s) {
             nb::list out;
             for (const std::string& c : s.valid_continuations()) out.append(to_text(c));
             return out;
           })
      .def("get_invalid_continuations",
           [](const Stepper& s) {
             nb::list out;
             for (const std::string& c : s.invalid_continuations()) out.append(to_text(c));
             return out;
           })
      .def("has_reached_accept_state", &Stepper::has_reached_accept_state)
      .def("can_accept_more_input", &Stepper::can_accept_more_input)
      .def("is_within_value", &Stepper::is_within_value)
      .def("accepts_any_token", &Stepper::accepts_any_token)
      .def("get_identifier", &Stepper::identifier)
      .def("get_token_ids_history", &Stepper::token_ids)
      .def(
          "get_token_safe_output",
          [](const Stepper& s, nb::callable decode) {
            return decode(nb::cast(s.token_ids()));
          },
          nb::arg("decode_function"))
      .def_prop_rw("state_machine", readable("state_machine", &machine_of),
                   writable("state_machine"),
                   nb::for_setter(nb::arg("value").none()))
      .def_prop_rw(
          "current_state",
          readable("current_state", [](const Stepper& s) { return from_key(s.current_state()); }),
          [](nb::handle self, nb::handle key) {
            if (!instance_dict(self).is_none()) return writable("current_state")(self, key);
            Stepper& s = *nb::inst_ptr<Stepper>(self);
            const StateMachine& n = *s.frame->node;
            if (n.kind != Kind::kGraph) throw GrammarError("only graph steppers change state");
            auto i = n.find_state(to_key(key));
            if (!i) throw GrammarError("state " + to_key(key).repr() + " is not in " + n.describe());
            s = s.with_state(*i);
          })
      .def_prop_rw("target_state",
                   readable("target_state",
                            [](const Stepper& s) -> nb::object {
                              auto t = s.target_state();
                              return t ? from_key(*t) : nb::none();
                            }),
                   writable("target_state"),
                   nb::for_setter(nb::arg("value").none()))
      .def_prop_rw("sub_stepper",
                   readable("sub_stepper",
                            [](const Stepper& s) -> nb::object {
                              auto sub = s.sub_stepper();
                              return sub ? wrap_stepper(*sub) : nb::none();
                            }),
                   writable("sub_stepper"),
                   nb::for_setter(nb::arg("value").none()))
      .def_prop_rw(
          "history",
          readable("history", [](const Stepper& s) -> nb::object { return wrap_steppers(s.history()); }),
          writable("history"))
      .def_prop_rw("consumed_character_count",
                   readable("consumed_character_count",
                            [](const Stepper& s) -> nb::object {
                              return nb::int_(s.consumed_character_count());
                            }),
                   writable("consumed_character_count"))
      .def_prop_rw("remaining_input",
                   readable("remaining_input",
                            [](const Stepper& s) -> nb::object {
                              if (!s.is_root() || !s.path->remaining) return nb::none();
                              return to_text(*s.path->remaining);
                            }),
                   writable("remaining_input"),
                   nb::for_setter(nb::arg("value").none()))
      .def_prop_rw("_raw_value",
                   readable("_raw_value",
                            [](const Stepper& s) -> nb::object {
                              std::string raw = s.raw_value();
                              return raw.empty() ? nb::none() : nb::object(to_text(raw));
                            }),
                   writable("_raw_value"),
                   nb::for_setter(nb::arg("value").none()))
      .def(
          "step",
          [](nb::handle self, nb::handle new_value, nb::handle remaining_input) -> nb::object {
            const Stepper& s = native(self);
            if (!instance_dict(self).is_none()) {  // a subclass records the step itself
              nb::object next = wrap_stepper(s, self);
              nb::object raw = nb::getattr(self, "_raw_value");
              nb::object count = nb::getattr(self, "consumed_character_count");
              if (!new_value.is_none()) {
                writable("_raw_value")(next, raw.is_none() ? nb::object(nb::borrow(new_value))
                                                          : nb::object(raw + new_value));
                writable("consumed_character_count")(next, count + nb::int_(nb::len(new_value)));
              }
              writable("remaining_input")(next, remaining_input);
              return next;
            }
            if (!remaining_input.is_none())
              throw PseError("a built-in stepper holds remaining input only as consume() leaves it");
            if (new_value.is_none()) return wrap_stepper(s, self);
            for (const Stepper& n : s.consume(to_bytes(new_value)))
              if (!n.path->remaining) return wrap_stepper(n, self);
            throw PseError("this stepper cannot take " +
                           nb::cast<std::string>(nb::repr(new_value)));
          },
          nb::arg("new_value").none() = nb::none(), nb::arg("remaining_input").none() = nb::none(),
          "This stepper after `new_value` (a built-in stepper consumes it whole); a Stepper "
          "subclass records `new_value` and `remaining_input` in its properties.")
      .def(
          "add_to_history",
          [](nb::handle self, nb::handle stepper) {
            if (instance_dict(self).is_none())
              throw PseError("a built-in stepper's history is fixed by its path; complete_step() "
                             "returns steppers with a finished sub-stepper in their history");
            nb::object h = nb::getattr(self, "history");
            nb::list items(h);
            items.append(stepper);
            writable("history")(self, items);
          },
          nb::arg("stepper"),
          "Append a completed sub-stepper to the history (a Stepper subclass keeps its own).")
      .def("__repr__", [](nb::handle self) {
        const Stepper& s = native(self);
        std::string name = nb::cast<std::string>(nb::getattr(self.type(), "__name__"));
        std::string r = name + "(" + s.frame->node->describe() + ", state=" +
                        s.current_state().repr();
        std::string raw = s.raw_value();
        if (!raw.empty()) r += ", value=" + nb::cast<std::string>(nb::repr(to_text(raw)));
        return r + ")";
      });

  // The class of the steppers a machine hands out; the pse types set their own.
  nb::type<StateMachine>().attr("stepper_class") = nb::type<Stepper>();

  nb::class_<StepperDelta>(m, "StepperDelta", "One outcome of feeding a token to a stepper.")
      .def(
          "__init__",
          [](StepperDelta* self, const Stepper& stepper, nb::handle token, bool was_healed,
             std::int32_t token_id) {
            new (self) StepperDelta(stepper, to_bytes(token), was_healed, token_id);
          },
          nb::arg("stepper"), nb::arg("token"), nb::arg("was_healed") = false,
          nb::arg("token_id") = -1)
      .def_prop_rw(
          "stepper", [](const StepperDelta& d) { return wrap_stepper(d.stepper); },
          [](StepperDelta& d, const Stepper& s) { d.stepper = s; })
      .def_prop_rw(
          "token", [](const StepperDelta& d) { return to_text(d.token); },
          [](StepperDelta& d, nb::handle t) { d.token = to_bytes(t); })
      .def_rw("was_healed", &StepperDelta::was_healed)
      .def_rw("token_id", &StepperDelta::token_id)
      .def("is_attractive_path", &StepperDelta::is_attractive_path)
      .def_static(
          "choose_best_path",
          [](const std::vector<StepperDelta>& deltas) {
            auto [token, steppers] = StepperDelta::choose_best_path(deltas);
            return nb::make_tuple(to_text(token), wrap_steppers(steppers));
          },
          nb::arg("deltas"))
      .def("__repr__", [](const StepperDelta& d) {
        return "StepperDelta(token=" + nb::cast<std::string>(nb::repr(to_text(d.token))) +
               ", was_healed=" + (d.was_healed ? "True" : "False") + ")";
      });
}

}  // namespace pse::py
