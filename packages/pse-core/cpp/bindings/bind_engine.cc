#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_set>

#include "bindings.h"
#include "pse_core/engine.h"
#include "pse_core/errors.h"
#include "pse_core/stepper.h"

namespace pse::py {

namespace {

using Bitmask = nb::ndarray<nb::device::cpu, nb::c_contig>;

std::uint32_t* words_of(Bitmask& a, std::size_t& words) {
  if (a.dtype() != nb::dtype<std::int32_t>() && a.dtype() != nb::dtype<std::uint32_t>())
    throw nb::type_error("the bitmask must be an int32 or uint32 array");
  words = a.size();
  return static_cast<std::uint32_t*>(a.data());
}

template <class T>
void mask_rows(T* logits, std::size_t rows, std::size_t cols, const std::uint32_t* bits,
               std::size_t bit_rows, std::size_t words, T minus_inf) {
  // Word by word: a word of 32 allowed tokens is skipped, a run of words with
  // none is filled at once, a mixed word visits only its clear bits.
  const std::size_t covered = std::min(cols, words * 32);
  for (std::size_t r = 0; r < rows; ++r) {
    const std::uint32_t* row_bits = bits + (bit_rows == 1 ? 0 : r) * words;
    T* row = logits + r * cols;
    std::size_t j = 0;
    for (; j + 32 <= covered; j += 32) {
      std::uint32_t w = row_bits[j >> 5];
      if (w == 0xFFFFFFFFu) continue;
      if (w == 0) {  // a run of words with no allowed token: one fill
        std::size_t end = j + 32;
        while (end + 32 <= covered && row_bits[end >> 5] == 0) end += 32;
        std::fill(row + j, row + end, minus_inf);
        j = end - 32;
        continue;
      }
      for (; w != 0xFFFFFFFFu; w |= w + 1) row[j + std::countr_one(w)] = minus_inf;
    }
    for (; j < covered; ++j)
      if (!((row_bits[j >> 5] >> (j & 31)) & 1u)) row[j] = minus_inf;
    std::fill(row + covered, row + cols, minus_inf);  // columns past the bitmask
  }
}

/// Set every logit whose bit is clear to -inf, in place.
void apply_token_bitmask_inplace(Bitmask logits, Bitmask bitmask) {
  if (logits.ndim() < 1 || logits.ndim() > 2) throw nb::type_error("logits must be 1-D or 2-D");
  if (bitmask.ndim() < 1 || bitmask.ndim() > 2) throw nb::type_error("bitmask must be 1-D or 2-D");
  std::size_t rows = logits.ndim() == 2 ? logits.shape(0) : 1;
  std::size_t cols = logits.shape(logits.ndim() - 1);
  std::size_t bit_rows = bitmask.ndim() == 2 ? bitmask.shape(0) : 1;
  std::size_t words = bitmask.shape(bitmask.ndim() - 1);
  if (bit_rows != 1 && bit_rows != rows)
    throw nb::value_error("bitmask rows must be 1 or match the logits rows");
  std::size_t unused;
  const std::uint32_t* bits = words_of(bitmask, unused);
  nb::gil_scoped_release release;
  if (logits.dtype() == nb::dtype<float>()) {
    mask_rows(static_cast<float*>(logits.data()), rows, cols, bits, bit_rows, words,
              -std::numeric_limits<float>::infinity());
  } else if (logits.dtype() == nb::dtype<double>()) {
    mask_rows(static_cast<double*>(logits.data()), rows, cols, bits, bit_rows, words,
              -std::numeric_limits<double>::infinity());
  } else if (logits.dtype().code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Float) &&
             logits.dtype().bits == 16) {
    mask_rows(static_cast<std::uint16_t*>(logits.data()), rows, cols, bits, bit_rows, words,
              static_cast<std::uint16_t>(0xFC00));  // float16 -inf
  } else if (logits.dtype().code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Bfloat) &&
             logits.dtype().bits == 16) {
    mask_rows(static_cast<std::uint16_t*>(logits.data()), rows, cols, bits, bit_rows, words,
              static_cast<std::uint16_t>(0xFF80));  // bfloat16 -inf
  } else {
    nb::gil_scoped_acquire acquire;
    throw nb::type_error("logits must be float16, bfloat16, float32 or float64");
  }
}

}  // namespace

void bind_engine(nb::module_& m) {
  nb::class_<Engine>(m, "Engine", "Per-sequence structured-generation state: masks and steps.")
      .def(
          "__init__",
          [](Engine* self, std::shared_ptr<Vocabulary> vocabulary, bool multi_token_sampling,
             int max_resample_attempts) {
            if (!vocabulary) throw VocabularyError("Engine needs a Vocabulary");
            new (self) Engine(std::move(vocabulary), multi_token_sampling, max_resample_attempts);
          },
          nb::arg("vocabulary"), nb::arg("multi_token_sampling") = false,
          nb::arg("max_resample_attempts") = 5)
      .def_prop_rw(
          "state_machine", [](Engine& e) { return e.state_machine(); },
          [](Engine& e, SMPtr sm) {
            if (sm) prepare(sm.get());
            e.set_state_machine(std::move(sm));
          },
          nb::arg().none())
      .def_prop_rw(
          "steppers",
          [](Engine& e) {
            std::vector<Stepper> out;
            for (const PathPtr& p : e.paths()) out.push_back(root_view(p));
            return wrap_steppers(out);  // each in its machine's stepper class
          },
          [](Engine& e, const std::vector<Stepper>& steppers) {
            std::vector<PathPtr> paths;
            for (const Stepper& s : steppers) paths.push_back(s.path);
            e.set_paths(std::move(paths));
          })
      .def_rw("multi_token_sampling", &Engine::multi_token_sampling)
      .def_rw("max_resample_attempts", &Engine::max_resample_attempts)
      .def_rw("remember_masks", &Engine::remember_masks,
              "Recall and remember whole masks by the structure of the position (on by "
              "default); off, every mask is computed.")
      .def_rw("multi_token_mapping", &Engine::multi_token_mapping)
      .def_prop_rw("whitelist_control_token_ids", &Engine::whitelist, &Engine::set_whitelist)
      .def_prop_ro("has_reached_accept_state", &Engine::has_reached_accept_state)
      .def_prop_ro("vocabulary", [](Engine& e) -> const TrieMap& { return e.vocab->trie(); },
                   nb::rv_policy::reference_internal)
      .def_prop_ro("native_vocabulary",
                   [](Engine& e) { return std::const_pointer_cast<Vocabulary>(e.vocab); })
      .def_prop_ro("reverse_vocabulary",
                   [](Engine& e) {
                     nb::dict d;
                     for (std::size_t id = 0; id < e.vocab->size(); ++id) {
                       const auto& t = e.vocab->token(static_cast<std::int32_t>(id));
                       if (t) d[nb::int_(id)] = to_text(*t);
                     }
                     return d;
                   })
      .def_prop_ro("vocab_size", [](Engine& e) { return e.vocab->size(); })
      .def_prop_ro("token_ids_history", &Engine::token_history)
      .def_prop_ro("raw_output", [](Engine& e) { return to_text(e.text()); })
      .def("reset", &Engine::reset, nb::arg("hard_reset") = false)
      .def(
          "fill_bitmask",
          [](Engine& e, Bitmask out) {
            std::size_t words;
            std::uint32_t* bits = words_of(out, words);
            nb::gil_scoped_release release;
            return e.fill_bitmask(bits, words);
          },
          nb::arg("out"), "Fill `out` with the allowed tokens; returns how many are allowed.")
      .def(
          "fill_mask",
          [](Engine& e, Bitmask out) {
            std::size_t words;
            std::uint32_t* bits = words_of(out, words);
            MaskStatus status;
            {
              nb::gil_scoped_release release;
              status = e.fill_mask(bits, words);
            }
            return nb::make_tuple(status.allowed, status.only_end);
          },
          nb::arg("out"),
          "fill_bitmask, returning (allowed, only_end): only_end is true when the structure is "
          "complete and nothing but end tokens (EOS, whitelisted control tokens) is allowed.")
      .def(
          "advance_token",
          [](Engine& e, std::int32_t id, std::optional<std::int64_t> budget,
             std::optional<Bitmask> out) {
            std::size_t words = 0;
            std::uint32_t* bits = out ? words_of(*out, words) : nullptr;
            std::vector<std::int32_t> emitted;
            MaskStatus status;
            {
              nb::gil_scoped_release release;
              emitted = e.advance_within(id, budget ? *budget : -1);
              if (bits && !emitted.empty() && !e.vocab->is_eos(emitted.back()))
                status = e.fill_mask(bits, words);
            }
            return nb::make_tuple(emitted, status.allowed, status.only_end);
          },
          nb::arg("token_id"), nb::arg("budget").none() = nb::none(),
          nb::arg("out").none() = nb::none(),
          "Advance on a chosen token and fill the next mask, in one call. Returns (emitted, "
          "allowed, only_end): the ids to emit ([] when the token is not allowed or, with a "
          "budget, no known completion fits after it; the engine is then unchanged), then "
          "fill_mask(out) after them (0, False without `out`, when rejected or after EOS).")
      .def("allowed_token_ids",
           [](Engine& e) {
             std::vector<std::uint32_t> bits((e.vocab->size() + 31) / 32);
             {
               nb::gil_scoped_release release;
               e.fill_bitmask(bits.data(), bits.size());
             }
             std::vector<std::int32_t> ids;
             for (std::size_t i = 0; i < e.vocab->size(); ++i)
               if ((bits[i >> 5] >> (i & 31)) & 1u) ids.push_back(static_cast<std::int32_t>(i));
             return ids;
           })
      .def("is_token_allowed", &Engine::is_token_allowed, nb::arg("token_id"))
      .def(
          "shortest_completion",
          [](Engine& e) -> nb::object {
            auto c = e.shortest_completion();
            return c ? nb::object(to_text(*c)) : nb::none();
          },
          "Shortest text that completes the structure from here, or None if unknown.")
      .def("completion_token_ids", &Engine::completion_tokens,
           "Fewest tokens that spell shortest_completion() ([] when complete); if no tokens "
           "spell it, the shortest completion over one-byte tokens; None if none is known.")
      .def("completion_length_after", &Engine::completion_length_after, nb::arg("token_id"),
           "Tokens a completion needs after `token_id`, or None if it is not allowed.")
      .def("consume_token", &Engine::consume_token, nb::arg("token_id"))
      .def(
          "consume_text",
          [](Engine& e, nb::handle text, bool healing) {
            return e.consume_text(to_bytes(text), healing);
          },
          nb::arg("text"), nb::arg("token_healing") = true);

  m.def(
      "fill_masks",
      [](const std::vector<Engine*>& engines, Bitmask out, const std::vector<std::size_t>& rows,
         std::size_t threads) {
        if (engines.size() != rows.size())
          throw nb::value_error("fill_masks needs one bitmask row per engine");
        if (out.ndim() != 2) throw nb::type_error("the bitmask must be 2-D: (rows, words)");
        std::size_t total;
        std::uint32_t* bits = words_of(out, total);
        const std::size_t words = out.shape(1);
        std::vector<std::uint32_t*> targets;
        std::vector<bool> used(out.shape(0), false);
        for (std::size_t r : rows) {
          if (r >= out.shape(0))
            throw nb::index_error(("bitmask row " + std::to_string(r) + " is out of range").c_str());
          if (used[r]) throw nb::value_error("fill_masks was given the same bitmask row twice");
          used[r] = true;
          targets.push_back(bits + r * words);
        }
        std::unordered_set<const Engine*> seen;
        bool python = false;
        for (const Engine* e : engines) {
          if (!e) throw nb::type_error("fill_masks needs Engine objects, not None");
          if (!seen.insert(e).second) throw nb::value_error("fill_masks was given an engine twice");
          python |= e->sharing() == Engine::Sharing::kPython;
        }
        std::vector<MaskStatus> status;
        if (python) {  // a Python-defined node steps only with the GIL held
          status = fill_masks(engines, targets, words, 1);
        } else {
          nb::gil_scoped_release release;
          status = fill_masks(engines, targets, words, threads);
        }
        nb::list result;
        for (const MaskStatus& s : status) result.append(nb::make_tuple(s.allowed, s.only_end));
        return result;
      },
      nb::arg("engines"), nb::arg("out"), nb::arg("rows"), nb::arg("threads") = 0,
      "Fill the masks of many engines in one call: engines[i] fills out[rows[i]]. Returns "
      "[(allowed, only_end)] as Engine.fill_mask does, per engine. Engines with only native "
      "machines fill in parallel on up to `threads` threads (0: one per CPU) with the GIL "
      "released; grammars fill one at a time, still without the GIL; if any engine has a "
      "Python-defined machine, the whole call runs on this thread with the GIL held. Each "
      "engine and each row at most once; overridden fill_bitmask methods are not called.");

  m.def("apply_token_bitmask_inplace", &apply_token_bitmask_inplace, nb::arg("logits"),
        nb::arg("bitmask"), "Set the logits of disallowed tokens to -inf, in place.");
}

}  // namespace pse::py
