// Native checked nodes (nodes/checked.h): machines under a check that no
// automaton can make, stepped in C++ with no Python call per token.
#include <algorithm>

#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>

#include "bindings.h"
#include "nodes/checked.h"
#include "nodes/checked_string.h"
#include "nodes/object_keys.h"
#include "nodes/unique_items.h"

namespace pse::py {

namespace {

/// A Python str as code points (lone surrogates kept).
std::u32string code_points(nb::handle text) {
  if (!PyUnicode_Check(text.ptr())) throw nb::type_error("expected a str");
  const Py_ssize_t n = PyUnicode_GetLength(text.ptr());
  std::u32string out(static_cast<std::size_t>(n), U'\0');
  for (Py_ssize_t i = 0; i < n; ++i)
    out[static_cast<std::size_t>(i)] = static_cast<char32_t>(PyUnicode_ReadChar(text.ptr(), i));
  return out;
}

nb::str to_str(const std::u32string& text) {
  // UTF-32 in native byte order through the stable ABI (the abi3 wheel for
  // CPython 3.12+); surrogatepass keeps lone surrogates.
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  int order = -1;
#else
  int order = 1;
#endif
  PyObject* s = PyUnicode_DecodeUTF32(reinterpret_cast<const char*>(text.data()),
                                      static_cast<Py_ssize_t>(text.size() * sizeof(char32_t)),
                                      "surrogatepass", &order);
  if (!s) throw nb::python_error();
  return nb::steal<nb::str>(s);
}

/// The idn-hostname fallback: two Python callables, `valid(name)` and
/// `viable(prefix, escape)`, called with the GIL held.
class PyIdnFallback : public IdnFallback {
 public:
  PyIdnFallback(nb::object valid, nb::object viable)
      : valid_(valid.release().ptr()), viable_(viable.release().ptr()) {}
  ~PyIdnFallback() override {
    if (!Py_IsInitialized()) return;
    nb::gil_scoped_acquire gil;
    Py_DECREF(valid_);
    Py_DECREF(viable_);
  }
  bool valid(const std::u32string& name) const override {
    nb::gil_scoped_acquire gil;
    return nb::cast<bool>(nb::handle(valid_)(to_str(name)));
  }
  bool viable(const std::u32string& prefix, std::string_view escape) const override {
    nb::gil_scoped_acquire gil;
    return nb::cast<bool>(nb::handle(viable_)(to_str(prefix), nb::str(escape.data(), escape.size())));
  }

 private:
  PyObject* valid_;
  PyObject* viable_;
};

}  // namespace

void bind_checked(nb::module_& m) {
  m.def(
      "unique_items",
      [](SMPtr array, const std::vector<std::pair<std::string, std::uint32_t>>& domain,
         const std::vector<SMPtr>& numbers, const std::vector<SMPtr>& strings) {
        if (!array) throw nb::type_error("unique_items takes a StateMachine");
        return make_checked(std::move(array), unique_items_check(domain, numbers, strings));
      },
      nb::arg("array"), nb::arg("domain") = std::vector<std::string>(),
      nb::arg("numbers") = std::vector<SMPtr>(), nb::arg("strings") = std::vector<SMPtr>(),
      "`array` (a machine reading one JSON array) whose items must be pairwise\n"
      "distinct in JSON equality: the token completing an item equal to an earlier\n"
      "one is masked, and so is an item's beginning that fixes a value already\n"
      "seen. `domain`: every value an item may take, when finitely many scalars,\n"
      "as (JSON text, exponent mask: bit e + 4 set when its automaton writes it\n"
      "with exponent e, |e| <= 4); an item's beginning is then masked when every\n"
      "unseen value is out of its reach (ValueError for a text that is not one\n"
      "JSON scalar). Without a domain, `numbers`: the DFA machines of every number\n"
      "an item may be, `strings`: the DFA or string machines of every string it may\n"
      "be; a number (string) item's beginning is then masked when every value\n"
      "beyond it in those machines is a seen one (ValueError for another kind).");
  m.def(
      "checked_string",
      [](SMPtr string, const std::string& format, std::uint32_t min_length,
         std::optional<std::uint32_t> max_length) {
        if (!string) throw nb::type_error("checked_string takes a StateMachine");
        std::shared_ptr<const StringRule> rule;
        if (format == "regex") rule = ecma_regex_rule(min_length, max_length);
        else if (format == "content:application/json") rule = json_content_rule(false);
        else if (format == "content:application/json;base64") rule = json_content_rule(true);
        else throw nb::value_error(("checked_string: unknown format " + format).c_str());
        return make_checked(std::move(string), checked_string_check(std::move(rule)));
      },
      nb::arg("string"), nb::arg("format"), nb::arg("min_length") = 0,
      nb::arg("max_length").none() = nb::none(),
      "`string` (a machine reading one JSON string) whose decoded value must be a\n"
      "valid `format` (\"regex\": an ECMA-262 pattern; \"content:application/json\"\n"
      "and \"content:application/json;base64\": a JSON text, plain or base64 of\n"
      "UTF-8) within the length bounds (code points): a token after which no\n"
      "completion is valid is masked.");
  m.def(
      "idn_hostname_string",
      [](SMPtr string, std::uint32_t min_length, std::optional<std::uint32_t> max_length,
         std::vector<std::pair<std::uint32_t, std::uint32_t>> allowed, nb::object valid,
         nb::object viable) {
        if (!string) throw nb::type_error("idn_hostname_string takes a StateMachine");
        auto fallback = std::make_shared<const PyIdnFallback>(valid, viable);
        return make_checked(std::move(string),
                            checked_string_check(idn_hostname_rule(
                                min_length, max_length, std::move(allowed), std::move(fallback))));
      },
      nb::arg("string"), nb::arg("min_length"), nb::arg("max_length").none(), nb::arg("allowed"),
      nb::arg("valid"), nb::arg("viable"),
      "`string` (a machine reading one JSON string) holding an IDNA2008 host name:\n"
      "code points outside `allowed` ((lo, hi) ranges) and plain ASCII names are\n"
      "judged natively; other names call `valid(name)` at the closing quote and\n"
      "`viable(prefix, escape)` at the end of a token (escape: the unfinished JSON\n"
      "escape after the prefix, or \"\\\\u\" for an unfinished UTF-8 character).");
  m.def(
      "object_keys",
      [](SMPtr object, std::vector<nb::str> names, std::vector<bool> usable,
         std::vector<std::uint32_t> required, std::vector<std::vector<std::uint32_t>> dependent,
         std::vector<std::vector<std::uint32_t>> forbidden, bool others,
         std::uint32_t min_properties, std::optional<std::uint32_t> max_properties) {
        if (!object) throw nb::type_error("object_keys takes a StateMachine");
        const std::size_t n = names.size();
        auto index_ok = [n](const std::vector<std::uint32_t>& xs) {
          return std::all_of(xs.begin(), xs.end(), [n](std::uint32_t i) { return i < n; });
        };
        bool ok = usable.size() == n && dependent.size() == n && index_ok(required);
        for (const auto& xs : dependent) ok = ok && index_ok(xs);
        for (const auto& xs : forbidden) ok = ok && index_ok(xs);
        if (!ok) throw nb::value_error("object_keys: indices must name entries of `names`");
        ObjectKeys keys;
        for (const nb::str& name : names) keys.names.push_back(code_points(name));
        keys.usable = std::move(usable);
        keys.required = std::move(required);
        keys.dependent = std::move(dependent);
        keys.forbidden = std::move(forbidden);
        keys.others = others;
        keys.min_properties = min_properties;
        keys.max_properties = max_properties;
        return make_checked(std::move(object), object_keys_check(std::move(keys)));
      },
      nb::arg("object"), nb::arg("names"), nb::arg("usable"), nb::arg("required"),
      nb::arg("dependent"), nb::arg("forbidden"), nb::arg("others"), nb::arg("min_properties"),
      nb::arg("max_properties").none(),
      "`object` (a machine reading one JSON object, offering its pairs in any order)\n"
      "whose keys are checked as they arrive: each of `names` (`usable[i]`: may\n"
      "appear) at most once, the `required` indices and, transitively, the\n"
      "`dependent[i]` of each present key before the closing brace, no set of\n"
      "`forbidden` complete, keys that are not named only when `others`, and the\n"
      "pair count within the bounds. A token after which no completion is valid is\n"
      "masked.");
  m.def(
      "ecma_regex_valid", [](nb::handle text) { return ecma_regex_valid(code_points(text)); },
      nb::arg("text"), "Whether `text` is an ECMA-262 pattern (Unicode mode).");
  m.def(
      "ecma_regex_viable", [](nb::handle text) { return ecma_regex_viable(code_points(text)); },
      nb::arg("text"), "Whether some completion of `text` is an ECMA-262 pattern.");
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
