#include "bindings.h"

NB_MODULE(_core, m) {
  m.doc() = "Native core of the Proxy Structuring Engine";
  pse::py::bind_errors(m);
  pse::py::bind_state_machine(m);
  pse::py::bind_stepper(m);
  pse::py::bind_vocabulary(m);
  pse::py::bind_engine(m);
  pse::py::bind_automata(m);
  pse::py::bind_grammar(m);
}
