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

/// The machine's own `stepper_value` when its Python class defines one;
/// otherwise the raw text parsed as JSON, or the raw text itself.
nb::object current_value(const Stepper& s) {
  nb::object sm = machine_of(s);
  if (s.frame->kind != Kind::kBuffer && !sm.is_none() && nb::hasattr(sm, "stepper_value"))
    return sm.attr("stepper_value")(nb::cast(s));
  std::string raw = s.raw_value();
  if (raw.empty()) return nb::none();
  nb::str text = to_text(raw);
  try {
    return nb::module_::import_("json").attr("loads")(text);
  } catch (nb::python_error&) {
    return text;
  }
}

}  // namespace

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
      .def("clone", [](const Stepper& s) { return Stepper(s); })
      .def("__copy__", [](const Stepper& s) { return Stepper(s); })
      .def(
          "consume", [](const Stepper& s, nb::handle token) { return s.consume(to_bytes(token)); },
          nb::arg("token"))
      .def("get_current_value", &current_value)
      .def_prop_ro("value", &current_value)
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
      .def_prop_ro("state_machine", &machine_of)
      .def_prop_rw(
          "current_state", [](const Stepper& s) { return from_key(s.current_state()); },
          [](Stepper& s, nb::handle key) {
            const StateMachine& n = *s.frame->node;
            if (n.kind != Kind::kGraph) throw GrammarError("only graph steppers change state");
            auto i = n.find_state(to_key(key));
            if (!i) throw GrammarError("state " + to_key(key).repr() + " is not in " + n.describe());
            s = s.with_state(*i);
          })
      .def_prop_ro("target_state",
                   [](const Stepper& s) -> nb::object {
                     auto t = s.target_state();
                     return t ? from_key(*t) : nb::none();
                   })
      .def_prop_ro("sub_stepper", &Stepper::sub_stepper)
      .def_prop_ro("history", &Stepper::history)
      .def_prop_ro("consumed_character_count", &Stepper::consumed_character_count)
      .def_prop_ro("remaining_input",
                   [](const Stepper& s) -> nb::object {
                     if (!s.is_root() || !s.path->remaining) return nb::none();
                     return to_text(*s.path->remaining);
                   })
      .def_prop_ro("_raw_value",
                   [](const Stepper& s) -> nb::object {
                     std::string raw = s.raw_value();
                     return raw.empty() ? nb::none() : nb::object(to_text(raw));
                   })
      .def("__repr__", [](const Stepper& s) {
        std::string r = "Stepper(" + s.frame->node->describe() + ", state=" +
                        s.current_state().repr();
        std::string raw = s.raw_value();
        if (!raw.empty()) r += ", value=" + nb::cast<std::string>(nb::repr(to_text(raw)));
        return r + ")";
      });

  nb::class_<StepperDelta>(m, "StepperDelta", "One outcome of feeding a token to a stepper.")
      .def(
          "__init__",
          [](StepperDelta* self, const Stepper& stepper, nb::handle token, bool was_healed,
             std::int32_t token_id) {
            new (self) StepperDelta(stepper, to_bytes(token), was_healed, token_id);
          },
          nb::arg("stepper"), nb::arg("token"), nb::arg("was_healed") = false,
          nb::arg("token_id") = -1)
      .def_rw("stepper", &StepperDelta::stepper)
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
            return std::make_pair(to_text(token), steppers);
          },
          nb::arg("deltas"))
      .def("__repr__", [](const StepperDelta& d) {
        return "StepperDelta(token=" + nb::cast<std::string>(nb::repr(to_text(d.token))) +
               ", was_healed=" + (d.was_healed ? "True" : "False") + ")";
      });
}

}  // namespace pse::py
