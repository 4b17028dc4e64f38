#include <cstdlib>
#include <string_view>

#include "bindings.h"

namespace pse::py {
void bind_checked(nb::module_& m);  // bind_checked.cc
}

NB_MODULE(_core, m) {
  m.doc() = "Native core of the Proxy Structuring Engine";
  // nanobind's report of instances alive at interpreter exit is for developers
  // hunting leaks (PSE_LEAK_WARNINGS=1): grammars held by module globals and
  // caches at shutdown, or hand-built cycles a user never sealed, would print
  // it at the end of every user's program.
  const char* leak_warnings = std::getenv("PSE_LEAK_WARNINGS");
  nb::set_leak_warnings(leak_warnings != nullptr && std::string_view(leak_warnings) == "1");
  pse::py::bind_errors(m);
  pse::py::bind_state_machine(m);
  pse::py::bind_stepper(m);
  pse::py::bind_vocabulary(m);
  pse::py::bind_engine(m);
  pse::py::bind_automata(m);
  pse::py::bind_grammar(m);
  pse::py::bind_checked(m);
}
