#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "pse_core/errors.h"
#include "pse_core/vocabulary.h"

namespace pse::py {

namespace {

void insert_items(TrieMap& trie, nb::handle items) {
  for (nb::handle item : items) {
    if (nb::len(item) != 2) throw nb::type_error("TrieMap items are (key, token_id) pairs");
    trie.insert(to_bytes(item[0]), nb::cast<std::int32_t>(item[1]));
  }
}

}  // namespace

void bind_vocabulary(nb::module_& m) {
  nb::class_<TrieMap>(m, "TrieMap", "Token strings -> token ids, with prefix queries.")
      .def(
          "__init__",
          [](TrieMap* self, nb::handle items) {
            new (self) TrieMap();
            insert_items(*self, items);
          },
          nb::arg("items") = nb::tuple())
      .def(
          "insert", [](TrieMap& t, nb::handle key, std::int32_t id) { t.insert(to_bytes(key), id); },
          nb::arg("key"), nb::arg("value"))
      .def("insert_all", &insert_items, nb::arg("items"))
      .def(
          "get",
          [](const TrieMap& t, nb::handle key, nb::handle fallback) -> nb::object {
            auto* ids = t.get(to_bytes(key));
            return ids ? nb::cast(*ids) : nb::borrow(fallback);
          },
          nb::arg("key"), nb::arg("default").none() = nb::none())
      .def("__getitem__",
           [](const TrieMap& t, nb::handle key) {
             auto* ids = t.get(to_bytes(key));
             if (!ids) throw nb::key_error(nb::cast<std::string>(nb::repr(key)).c_str());
             return *ids;
           })
      .def("__contains__",
           [](const TrieMap& t, nb::handle key) {
             if (!nb::isinstance<nb::str>(key) && !nb::isinstance<nb::bytes>(key)) return false;
             return t.get(to_bytes(key)) != nullptr;
           })
      .def("__len__", &TrieMap::size)
      .def(
          "longest_prefix",
          [](const TrieMap& t, nb::handle key) -> nb::object {
            auto best = t.longest_prefix(to_bytes(key));
            if (!best) return nb::none();
            return nb::make_tuple(to_text(best->first), nb::cast(best->second));
          },
          nb::arg("key"))
      .def("keys",
           [](const TrieMap& t) {
             nb::list out;
             for (const auto& [k, ids] : t.items()) out.append(to_text(k));
             return out;
           })
      .def_prop_ro("node_count", [](const TrieMap& t) { return t.nodes().size(); });

  nb::class_<Vocabulary>(m, "Vocabulary",
                         "One tokenizer's tokens as bytes, shared by every engine.")
      .def(
          "__init__",
          [](Vocabulary* self, nb::handle tokens, std::vector<std::int32_t> control,
             std::vector<std::int32_t> eos) {
            std::vector<std::optional<std::string>> bytes;
            bytes.reserve(nb::len(tokens));
            for (nb::handle t : tokens) {
              if (t.is_none()) bytes.emplace_back(std::nullopt);
              else bytes.emplace_back(to_bytes(t));
            }
            new (self) Vocabulary(std::move(bytes), std::move(control), std::move(eos));
          },
          nb::arg("tokens"), nb::arg("control_token_ids") = std::vector<std::int32_t>{},
          nb::arg("eos_token_ids") = std::vector<std::int32_t>{})
      .def("__len__", &Vocabulary::size)
      .def(
          "token_bytes",
          [](const Vocabulary& v, std::int32_t id) -> nb::object {
            if (id < 0 || static_cast<std::size_t>(id) >= v.size())
              throw nb::index_error("token id out of range");
            const auto& t = v.token(id);
            if (!t) return nb::none();
            return nb::bytes(t->data(), t->size());
          },
          nb::arg("token_id"))
      .def_prop_ro("trie", [](const Vocabulary& v) -> const TrieMap& { return v.trie(); },
                   nb::rv_policy::reference_internal)
      .def_prop_ro("eos_token_ids", &Vocabulary::eos_ids)
      .def_prop_ro("control_token_ids", &Vocabulary::control_ids)
      .def_prop_ro("mask_cache_entries", [](const Vocabulary& v) { return v.cache().entries(); })
      .def_prop_ro("mask_cache_bytes", [](const Vocabulary& v) { return v.cache().bytes(); })
      .def_prop_rw(
          "mask_cache_limit", [](const Vocabulary& v) { return v.cache().limit(); },
          [](Vocabulary& v, std::size_t bytes) { v.cache().set_limit(bytes); },
          "Bytes of mask-cache entries kept before the cache empties (default 1 GiB).");
}

}  // namespace pse::py
