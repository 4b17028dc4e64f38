#include "bindings.h"

NB_MODULE(_core, m) {
  m.doc() = "Native core of the Proxy Structuring Engine";
  // Recursive grammars are reference cycles kept for the process lifetime
  // (see state_machine.h); nanobind would report them as leaks at exit.
  nb::set_leak_warnings(false);
  pse::py::bind_errors(m);
  pse::py::bind_state_machine(m);
  pse::py::bind_stepper(m);
  pse::py::bind_vocabulary(m);
  pse::py::bind_engine(m);
  pse::py::bind_automata(m);
  pse::py::bind_grammar(m);
}
