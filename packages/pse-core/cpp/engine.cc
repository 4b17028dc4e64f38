#include "pse_core/engine.h"

#include <algorithm>
#include <exception>
#include <unordered_set>

#include "consume.h"
#include "pse_core/completion.h"
#include "mask.h"
#include "nodes/leaf.h"
#include "pse_core/errors.h"
#include "pse_core/stepper_delta.h"
#include "support/parallel.h"

namespace pse {

namespace {
std::optional<std::string> best_completion(const std::vector<PathPtr>& paths,
                                           const ByteSet* alphabet);

/// Fewest tokens that spell the shortest completion from `paths` (nullopt:
/// unknown). When the shortest bytes have no spelling (a byte no token holds),
/// the shortest completion over the vocabulary's one-byte tokens is taken.
std::optional<std::vector<std::int32_t>> completion_ids(const Vocabulary& vocab,
                                                        const std::vector<PathPtr>& paths) {
  auto bytes = best_completion(paths, nullptr);
  if (!bytes) return std::nullopt;
  if (bytes->empty()) return std::vector<std::int32_t>{};
  auto ids = fewest_tokens(vocab.trie(), *bytes);
  if (!ids.empty()) return ids;
  ByteSet spellable = single_byte_tokens(vocab.trie());
  if (spellable == ByteSet{~0ull, ~0ull, ~0ull, ~0ull}) return std::nullopt;
  bytes = best_completion(paths, &spellable);
  if (!bytes) return std::nullopt;
  ids = fewest_tokens(vocab.trie(), *bytes);
  if (ids.empty()) return std::nullopt;
  return ids;
}

/// Fewest tokens that complete the structure from `paths` (nullopt: unknown).
std::optional<std::size_t> completion_size(const Vocabulary& vocab,
                                           const std::vector<PathPtr>& paths) {
  auto ids = completion_ids(vocab, paths);
  if (!ids) return std::nullopt;
  return ids->size();
}
}  // namespace

namespace {

/// Compute the derived facts a mask reads lazily (nullable, leaf classes, a
/// buffer's first bytes) for every node below `node`, so that fills on several
/// threads only read them; returns how the machine may be shared.
Engine::Sharing settle(const StateMachine* node, std::unordered_set<const StateMachine*>& seen) {
  using Sharing = Engine::Sharing;
  if (!node || !seen.insert(node).second) return Sharing::kParallel;
  if (node->external) return Sharing::kPython;
  Sharing worst = Sharing::kParallel;
  auto visit = [&](const StateMachine* child) { worst = std::max(worst, settle(child, seen)); };
  for (const auto& st : node->states)
    for (const auto& e : st.edges) visit(e.machine.get());
  visit(node->child.get());
  visit(node->separator.get());
  visit(node->ref_next());
  if (worst == Sharing::kPython) return worst;  // never stepped off the GIL: leave it lazy
  node->nullable();
  if (node->kind == Kind::kWaitFor && node->child) node->child->resolve()->first_bytes();
  if (leaf::is_leaf(node->kind) || node->kind == Kind::kWaitFor) node->leaf_class();
  return worst;
}

}  // namespace

PathPtr start_path(const SMPtr& machine, std::int32_t state, bool raw) {
  auto p = std::make_shared<Path>();
  p->arena = std::make_shared<Arena>(limits::kPathArenaBlockBytes);
  Runtime rt(*p->arena, true);
  p->top = rt.push(nullptr, machine.get(), -1, state, raw);
  p->machine = machine;
  return p;
}

Engine::Engine(VocabPtr v, bool multi, int max_resample)
    : vocab(std::move(v)),
      multi_token_sampling(multi),
      max_resample_attempts(max_resample),
      whitelist_(vocab->size()) {}

void Engine::set_state_machine(SMPtr machine) {
  machine_ = std::move(machine);
  if (masker_) masker_->memo().switch_to(machine_.get());
  reset(false);
  update_sharing();
}

void Engine::set_paths(std::vector<PathPtr> paths) {
  paths_ = std::move(paths);
  update_sharing();
}

void Engine::update_sharing() {
  std::unordered_set<const StateMachine*> seen;
  sharing_ = settle(machine_.get(), seen);
  for (const PathPtr& p : paths_) sharing_ = std::max(sharing_, settle(p->machine.get(), seen));
}

std::vector<MaskStatus> fill_masks(const std::vector<Engine*>& engines,
                                   const std::vector<std::uint32_t*>& rows, std::size_t words,
                                   std::size_t threads) {
  std::vector<MaskStatus> out(engines.size());
  std::vector<std::exception_ptr> errors(engines.size());
  std::vector<std::size_t> parallel, serial;
  for (std::size_t i = 0; i < engines.size(); ++i)
    (engines[i]->sharing() == Engine::Sharing::kParallel ? parallel : serial).push_back(i);
  auto fill = [&](std::size_t i) {
    try {
      out[i] = engines[i]->fill_mask(rows[i], words);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  };
  // Remembered masks are copies: cheaper here than a hand-off to a thread.
  // So are a few walks (a few µs each, where waking the pool's threads costs
  // about as much and a loaded machine may not run them at once).
  constexpr std::size_t kPoolFromWalks = 4;
  std::vector<std::size_t> walks;
  for (std::size_t i : parallel) {
    try {
      if (!engines[i]->fill_remembered_mask(rows[i], words, out[i])) walks.push_back(i);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  }
  if (walks.size() >= kPoolFromWalks)
    parallel_for(walks.size(), threads, [&](std::size_t k) { fill(walks[k]); });
  else
    for (std::size_t i : walks) fill(i);
  for (std::size_t i : serial) fill(i);
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return out;
}

void Engine::reset(bool hard) {
  if (hard) {
    machine_.reset();
    sharing_ = Sharing::kParallel;
  }
  paths_.clear();
  if (machine_) paths_.push_back(start_path(machine_));
}

void Engine::set_whitelist(const std::vector<std::int32_t>& ids) {
  std::fill(whitelist_.begin(), whitelist_.end(), false);
  whitelist_ids_.clear();
  for (std::int32_t id : ids) {
    if (id < 0 || static_cast<std::size_t>(id) >= whitelist_.size())
      throw VocabularyError("whitelisted token id " + std::to_string(id) + " is out of range");
    whitelist_[id] = true;
    whitelist_ids_.push_back(id);
  }
}

bool Engine::has_reached_accept_state() const {
  Arena arena;
  Runtime rt(arena, false);
  Positions closed;
  for (const PathPtr& p : paths_) close_path(rt, *p, closed);
  return std::any_of(closed.begin(), closed.end(), [](const Frame* f) { return f->done(); });
}

std::size_t Engine::fill_bitmask(std::uint32_t* out, std::size_t words) {
  return fill_mask(out, words).allowed;
}

namespace {

/// The status of a mask whose structural part is in `out`: end tokens (when
/// a position has finished) and whitelisted ones added.
MaskStatus finish_mask(const Vocabulary& vocab, const std::vector<std::int32_t>& whitelist,
                       std::uint32_t* out, MaskMemo::Result structure) {
  // Tokens the structure itself allows, before end tokens are added (those
  // have no bytes, so the structure never sets them); counted once.
  std::size_t allowed = structure.count;
  auto add = [&](std::int32_t id) {
    std::uint32_t& word = out[id >> 5];
    const std::uint32_t bit = 1u << (id & 31);
    allowed += !(word & bit);
    word |= bit;
  };
  if (structure.finished)
    for (std::int32_t id : vocab.eos_ids()) add(id);
  for (std::int32_t id : whitelist) add(id);
  return {allowed, structure.finished && structure.count == 0};
}

}  // namespace

bool Engine::fill_remembered_mask(std::uint32_t* out, std::size_t words, MaskStatus& status) {
  const std::size_t need = (vocab->size() + 31) / 32;
  if (words < need || sharing_ != Sharing::kParallel || !masker_ || !remember_masks) return false;
  MaskMemo::Result structure;
  MaskMemo& memo = masker_->memo();
  if (!memo.prepare(paths_, vocab->span()) || !memo.recall(out, words, structure)) return false;
  status = finish_mask(*vocab, whitelist_ids_, out, structure);
  return true;
}

MaskStatus Engine::fill_mask(std::uint32_t* out, std::size_t words) {
  const std::size_t need = (vocab->size() + 31) / 32;
  if (words < need)
    throw VocabularyError("bitmask has " + std::to_string(words) + " words, needs " +
                          std::to_string(need));
  if (!masker_) masker_ = std::make_shared<MaskComputer>(*vocab, *scratch_);
  MaskMemo::Result structure;
  MaskMemo& memo = masker_->memo();
  const bool memoize =
      remember_masks && sharing_ == Sharing::kParallel && memo.prepare(paths_, vocab->span());
  if (!memoize || !memo.recall(out, words, structure)) {
    std::fill(out + need, out + words, 0u);
    scratch_->reset();
    Positions closed;
    for (const PathPtr& p : paths_) close_path(masker_->runtime(), *p, closed);
    structure.finished = masker_->compute(closed, out);
    structure.count = masker_->allowed();
    if (memoize) memo.remember(out, need, structure, masker_->ids(), masker_->lookups());
  }
  return finish_mask(*vocab, whitelist_ids_, out, structure);
}

bool Engine::is_token_allowed(std::int32_t id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= vocab->size()) return false;
  if (whitelist_[id]) return true;
  if (vocab->is_eos(id)) return has_reached_accept_state();
  if (vocab->is_control(id) || !vocab->token(id)) return false;
  for (const PathPtr& p : paths_)
    if (can_consume(p, *vocab->token(id))) return true;
  return false;
}

bool Engine::advance(std::int32_t id) {
  std::vector<PathPtr> next;
  for (const PathPtr& p : paths_) {
    auto r = consume(p, *vocab->token(id), id);
    merge_paths(next, r.full);
  }
  if (next.empty()) return false;
  paths_ = std::move(next);
  return true;
}

std::vector<std::int32_t> Engine::consume_token(std::int32_t id) {
  if (id < 0 || static_cast<std::size_t>(id) >= vocab->size())
    throw TokenRejectedError("token id " + std::to_string(id) + " is outside the vocabulary");
  if (whitelist_[id]) return {id};
  if (vocab->is_eos(id)) {
    if (has_reached_accept_state()) return {id};
    throw TokenRejectedError("end-of-sequence token " + std::to_string(id) +
                             " before the structure is complete");
  }
  if (vocab->is_control(id) || !vocab->token(id))
    throw TokenRejectedError("control token " + std::to_string(id) + " is not whitelisted");
  if (!machine_) throw TokenRejectedError("the engine has no state machine; call configure()");
  if (!advance(id))
    throw TokenRejectedError("token " + std::to_string(id) + " cannot be consumed here");
  std::vector<std::int32_t> emitted{id};
  extend_forced(id, emitted);
  return emitted;
}

std::vector<std::int32_t> Engine::advance_within(std::int32_t id, std::int64_t budget) {
  if (id < 0 || static_cast<std::size_t>(id) >= vocab->size()) return {};
  if (whitelist_[id]) return {id};
  if (vocab->is_eos(id)) {
    if (has_reached_accept_state()) return {id};
    return {};
  }
  if (vocab->is_control(id) || !vocab->token(id) || !machine_) return {};
  std::vector<PathPtr> next;
  for (const PathPtr& p : paths_) {
    auto r = consume(p, *vocab->token(id), id);
    merge_paths(next, r.full);
  }
  if (next.empty()) return {};
  if (budget >= 0) {
    auto after = completion_size(*vocab, next);
    if (!after || static_cast<std::int64_t>(*after) + 1 > budget) return {};
  }
  paths_ = std::move(next);
  std::vector<std::int32_t> emitted{id};
  if (budget < 0 || !multi_token_sampling) {
    extend_forced(id, emitted);
    return emitted;
  }
  // The forced continuation is tokenized greedily, which can take more tokens
  // than the fewest that spell the completion: keep it only if it still fits.
  std::vector<PathPtr> single = paths_;
  extend_forced(id, emitted);
  if (emitted.size() > 1) {
    auto rest = completion_size(*vocab, paths_);
    if (!rest || static_cast<std::int64_t>(emitted.size() + *rest) > budget) {
      paths_ = std::move(single);
      emitted.resize(1);
    }
  }
  return emitted;
}

void Engine::extend_forced(std::int32_t id, std::vector<std::int32_t>& emitted) {
  if (!multi_token_sampling) return;
  auto mapped = multi_token_mapping.find(id);
  if (mapped != multi_token_mapping.end()) {
    for (std::size_t i = 1; i < mapped->second.size(); ++i) {
      std::int32_t next = mapped->second[i];
      if (!is_token_allowed(next) || vocab->is_eos(next) || !advance(next)) break;
      emitted.push_back(next);
    }
  }
  std::string forced = forced_bytes();
  for (std::size_t at = 0; at < forced.size();) {
    auto best = vocab->trie().longest_prefix(std::string_view(forced).substr(at));
    if (!best || !advance(best->second.front())) break;
    emitted.push_back(best->second.front());
    at += best->first.size();
  }
}

std::string Engine::forced_bytes() const {
  Arena arena;
  Runtime rt(arena, false);
  Positions now, next;
  for (const PathPtr& p : paths_) close_path(rt, *p, now);
  std::string forced;
  while (forced.size() < limits::kMaxForcedBytes && !now.empty()) {
    int only = -1;
    for (const Frame* f : now) {
      if (f->done() || f->kind == Kind::kExternal) return forced;
      for (int b = 0; b < 256; ++b) {
        if (b == only || !rt.step(f, static_cast<std::uint8_t>(b))) continue;
        if (only >= 0) return forced;  // two different bytes possible
        only = b;
      }
    }
    if (only < 0) break;
    forced += static_cast<char>(only);
    next.clear();
    rt.advance(now, static_cast<std::uint8_t>(only), next);
    now.swap(next);
  }
  return forced;
}

bool Engine::consume_text(std::string_view text, bool token_healing) {
  std::vector<StepperDelta> deltas;
  for (const PathPtr& p : paths_) {
    auto more = advance_path(p, text, token_healing ? &vocab->trie() : nullptr);
    deltas.insert(deltas.end(), more.begin(), more.end());
  }
  if (deltas.empty()) return false;
  auto [token, best] = StepperDelta::choose_best_path(deltas);
  std::vector<PathPtr> next;
  for (const Stepper& s : best) next.push_back(s.path);
  paths_ = std::move(next);
  return true;
}

namespace {

std::optional<std::string> best_completion(const std::vector<PathPtr>& paths,
                                           const ByteSet* alphabet) {
  Arena arena;
  Runtime rt(arena, false);
  std::optional<std::string> best;
  for (const PathPtr& p : paths) {
    Positions closed;
    close_path(rt, *p, closed);
    for (const Frame* f : closed) {
      auto c = shortest_completion(f, p->root_depth, alphabet);
      if (c && (!best || c->size() < best->size())) best = std::move(c);
    }
  }
  return best;
}

}  // namespace

std::optional<std::string> Engine::shortest_completion() const {
  return best_completion(paths_, nullptr);
}

std::optional<std::vector<std::int32_t>> Engine::completion_tokens() const {
  return completion_ids(*vocab, paths_);
}

std::optional<std::size_t> Engine::completion_length_after(std::int32_t id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= vocab->size() || !vocab->token(id) ||
      vocab->is_control(id))
    return std::nullopt;
  std::vector<PathPtr> next;
  for (const PathPtr& p : paths_) {
    auto r = consume(p, *vocab->token(id), id);
    merge_paths(next, r.full);
  }
  if (next.empty()) return std::nullopt;
  return completion_size(*vocab, next);
}

std::vector<std::int32_t> Engine::token_history() const {
  if (paths_.empty()) return {};
  return paths_.front()->token_ids.copy();
}

std::string Engine::text() const { return paths_.empty() ? std::string() : paths_.front()->text.copy(); }

}  // namespace pse
