// Shared declarations of the binding files: the only code that sees nanobind.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>

#include "pse_core/state_machine.h"
#include "pse_core/stepper.h"

namespace nb = nanobind;

namespace pse::py {

void bind_errors(nb::module_& m);
void bind_state_machine(nb::module_& m);
void bind_stepper(nb::module_& m);
void bind_vocabulary(nb::module_& m);
void bind_engine(nb::module_& m);
void bind_automata(nb::module_& m);
void bind_grammar(nb::module_& m);

/// Mark the nodes under `root` whose Python class overrides get_new_stepper.
void prepare(StateMachine* root);

/// A stepper as a Python object of its machine's `stepper_class` (a Python
/// subclass of Stepper), or of `like`'s class when `like` is a stepper of a
/// user subclass viewing the same machine (its instance attributes are copied).
nb::object wrap_stepper(Stepper s, nb::handle like = nb::handle());
nb::list wrap_steppers(const std::vector<Stepper>& steppers, nb::handle like = nb::handle());

/// A DfaStateMachine over `table` (256 targets per state, row-major; -1: no move),
/// built natively (for the automata compiled in one native call).
nb::object make_dfa_machine(const std::vector<std::int32_t>& table,
                            std::vector<std::uint8_t> accepting, std::int32_t start);

/// Python int or str -> StateKey, and back.
StateKey to_key(nb::handle h);
nb::object from_key(const StateKey& key);
/// Python str or bytes -> bytes (UTF-8 for str).
std::string to_bytes(nb::handle h);
/// bytes -> str, undecodable bytes replaced.
nb::str to_text(const std::string& bytes);

}  // namespace pse::py
