// Native checked nodes (nodes/checked.h): machines under a check that no
// automaton can make, stepped in C++ with no Python call per token.
#include <nanobind/stl/shared_ptr.h>

#include "bindings.h"
#include "nodes/checked.h"
#include "nodes/unique_items.h"

namespace pse::py {

void bind_checked(nb::module_& m) {
  m.def(
      "unique_items",
      [](SMPtr array) {
        if (!array) throw nb::type_error("unique_items takes a StateMachine");
        return make_checked(std::move(array), unique_items_check());
      },
      nb::arg("array"),
      "`array` (a machine reading one JSON array) whose items must be pairwise\n"
      "distinct in JSON equality: the token completing an item equal to an earlier\n"
      "one is masked.");
  m.def(
      "canonical_json",
      [](const std::string& text) -> nb::object {
        std::optional<std::string> key = canonical_json(text);
        if (!key) return nb::none();
        return nb::bytes(key->data(), key->size());
      },
      nb::arg("text"),
      "The key under which JSON-equal values coincide, for the text of one JSON\n"
      "value (None for other text, or a number with an exponent over 18 digits).");
}

}  // namespace pse::py
