#include "bindings.h"
#include "pse_core/errors.h"

namespace pse::py {

void bind_errors(nb::module_&) {
  // The classes are defined in Python (pse_core/errors.py); leaked on purpose
  // so that they outlive interpreter teardown of this module.
  static nb::object* errors = new nb::object(nb::module_::import_("pse_core.errors"));
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    auto raise = [](const char* name, const char* what) {
      nb::object cls = errors->attr(name);
      PyErr_SetString(cls.ptr(), what);
    };
    try {
      std::rethrow_exception(p);
    } catch (const GrammarError& e) {
      raise("GrammarError", e.what());
    } catch (const TokenRejectedError& e) {
      raise("TokenRejectedError", e.what());
    } catch (const VocabularyError& e) {
      raise("VocabularyError", e.what());
    } catch (const PseError& e) {
      raise("PseError", e.what());
    }
  });
}

StateKey to_key(nb::handle h) {
  if (nb::isinstance<nb::bool_>(h)) throw nb::type_error("a state id is an int or a str");
  if (nb::isinstance<nb::int_>(h)) return StateKey{nb::cast<std::int64_t>(h)};
  if (nb::isinstance<nb::str>(h)) return StateKey{nb::cast<std::string>(h)};
  throw nb::type_error("a state id is an int or a str");
}

nb::object from_key(const StateKey& key) {
  if (auto* i = std::get_if<std::int64_t>(&key.value)) return nb::int_(*i);
  return nb::str(std::get<std::string>(key.value).c_str());
}

std::string to_bytes(nb::handle h) {
  if (nb::isinstance<nb::bytes>(h)) {
    nb::bytes b = nb::borrow<nb::bytes>(h);
    return std::string(b.c_str(), b.size());
  }
  if (nb::isinstance<nb::str>(h)) return nb::cast<std::string>(h);
  throw nb::type_error("expected str or bytes");
}

nb::str to_text(const std::string& bytes) {
  PyObject* s = PyUnicode_DecodeUTF8(bytes.data(), static_cast<Py_ssize_t>(bytes.size()), "replace");
  if (!s) throw nb::python_error();
  return nb::steal<nb::str>(s);
}

}  // namespace pse::py
