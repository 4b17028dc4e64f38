// Python subclasses that override get_new_stepper become external nodes: the
// engine hands them whole strings and reads back their steppers; so do
// machines whose stepper_class overrides a stepping hook. A stepper
// class that overrides should_start_step is asked before it takes a token; one
// that overrides should_complete_step is asked before its accept state counts.
#include <unordered_map>
#include <unordered_set>

#include "bindings.h"
#include "pse_core/external.h"

namespace pse::py {

namespace {

ExternalNode::Handle hold(nb::object obj) {
  return ExternalNode::Handle(obj.release().ptr(), [](void* p) {
    if (!Py_IsInitialized()) return;
    nb::gil_scoped_acquire gil;
    Py_DECREF(static_cast<PyObject*>(p));
  });
}

/// Whether the class of `stepper` overrides the Stepper method `name`.
bool overrides(nb::handle stepper, const char* name) {
  nb::handle base = nb::type<Stepper>();
  return !nb::getattr(stepper.type(), name).is(nb::getattr(base, name));
}

class PyExternal : public ExternalNode {
 public:
  // Borrowed: a bound StateMachine lives inside its Python object, and this
  // node is owned by that StateMachine.
  explicit PyExternal(PyObject* machine) : machine_(machine) {}

  Handle start() override {
    nb::gil_scoped_acquire gil;
    return hold(nb::handle(machine_).attr("get_new_stepper")());
  }

  std::vector<Step> consume(void* h, std::string_view text) override {
    nb::gil_scoped_acquire gil;
    PyObject* s = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), nullptr);
    if (!s) {  // partial UTF-8: a Python stepper cannot see it (documented limitation)
      PyErr_Clear();
      return {};
    }
    nb::object token = nb::steal(s);
    nb::handle stepper(static_cast<PyObject*>(h));
    if (overrides(stepper, "should_start_step") &&
        !nb::cast<bool>(stepper.attr("should_start_step")(token)))
      return {};
    nb::object results = stepper.attr("consume")(token);
    std::vector<Step> out;
    for (nb::handle r : results) {
      nb::object rest = r.attr("remaining_input");
      std::size_t left = rest.is_none() ? 0 : nb::cast<std::string>(rest).size();
      if (left > text.size()) continue;
      out.push_back(Step{hold(nb::borrow(r)), text.size() - left});
    }
    return out;
  }

  bool accepting(void* h) override {
    nb::gil_scoped_acquire gil;
    nb::handle stepper(static_cast<PyObject*>(h));
    if (!nb::cast<bool>(stepper.attr("has_reached_accept_state")())) return false;
    return !overrides(stepper, "should_complete_step") ||
           nb::cast<bool>(stepper.attr("should_complete_step")());
  }

 private:
  PyObject* machine_;
};

/// Whether the machine `obj` steps with Python: its class overrides
/// get_new_stepper, or its stepper_class overrides a stepping hook.
bool overrides_stepper(nb::handle obj) {
  static nb::object* base = new nb::object(
      nb::getattr(nb::type<StateMachine>(), "get_new_stepper"));
  if (!nb::getattr(obj.type(), "get_new_stepper").is(*base)) return true;
  nb::object cls = nb::getattr(obj.type(), "stepper_class", nb::none());
  if (cls.is_none() || cls.is(nb::type<Stepper>())) return false;
  for (const char* hook :
       {"consume", "should_start_step", "should_complete_step", "has_reached_accept_state"})
    if (!nb::getattr(cls, hook, nb::none()).is(nb::getattr(nb::type<Stepper>(), hook)))
      return true;
  return false;
}

/// `overrides_stepper` answered once per Python class within one prepare():
/// a grammar holds many machines of few classes (e.g. a phrase per key).
using ClassAnswers = std::unordered_map<PyObject*, bool>;

void visit(StateMachine* node, std::unordered_set<StateMachine*>& seen, ClassAnswers& classes) {
  if (!node || !seen.insert(node).second) return;
  if (!node->external) {
    nb::object obj = nb::find(*node);
    if (obj.is_valid()) {
      auto [it, added] = classes.try_emplace(obj.type().ptr(), false);
      if (added) it->second = overrides_stepper(obj);
      if (it->second) node->external = std::make_shared<PyExternal>(obj.ptr());
    }
  }
  for (auto& st : node->states)
    for (auto& e : st.edges) visit(e.machine.get(), seen, classes);
  visit(node->child.get(), seen, classes);
  visit(node->separator.get(), seen, classes);
  visit(const_cast<StateMachine*>(node->ref_next()), seen, classes);
}

}  // namespace

void prepare(StateMachine* root) {
  std::unordered_set<StateMachine*> seen;
  ClassAnswers classes;
  visit(root, seen, classes);
}

}  // namespace pse::py
