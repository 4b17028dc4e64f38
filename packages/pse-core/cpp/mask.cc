#include "mask.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "consume.h"
#include "grammar/grammar_frames.h"
#include "nodes/checked.h"
#include "nodes/leaf.h"
#include "support/bitset.h"
#include "support/machine_edits.h"

namespace pse {

namespace {

/// Whether some position of `set` takes byte `b`, as Runtime::advance steps
/// them: below a leaf that ends mid-token most bytes the trie offers are
/// taken by no position (a first walk's masks try ~20 such bytes each), and
/// testing them here costs no call, no level and no closure. When it holds,
/// advance() on `b` is never empty (a stepped leaf stays in its closure).
bool takes_byte(const Positions& set, std::uint8_t b) {
  for (const Frame* q : set) {
    std::int32_t state;
    std::uint64_t local;
    if (!q->done() && leaf::is_leaf(q->kind) && leaf::step_frame(*q, b, state, local)) return true;
  }
  return false;
}

}  // namespace

void MaskMemo::forget() {
  forget_masks();
  owners_.clear();
}

void MaskMemo::forget_masks() {
  slots_.clear();
  sighted_.clear();
  keys_.clear();
  data_.clear();
  bytes_ = 0;
}

void MaskMemo::switch_to(const StateMachine* machine) {
  if (std::none_of(owners_.begin(), owners_.end(),
                   [machine](const SMPtr& m) { return m.get() == machine; }))
    forget();
}

bool MaskMemo::prepare(const std::vector<PathPtr>& paths, std::uint32_t span) {
  const std::uint64_t edits = machine_edits.load(std::memory_order_relaxed);
  if (edits != edits_) {
    forget();
    edits_ = edits;
  }
  key_.clear();
  hash_ = paths.size();
  auto put = [this](std::uint64_t word) {
    key_.push_back(word);
    hash_ = (hash_ ^ word) * 0x9E3779B97F4A7C15ull + (hash_ >> 29);
  };
  for (const PathPtr& p : paths) {
    if (std::find(owners_.begin(), owners_.end(), p->machine) == owners_.end()) {
      if (!owners_.empty()) forget();  // another machine: its nodes are other keys
      owners_.push_back(p->machine);
    }
    for (const Frame* f = p->top; f; f = f->parent) {
      if (f->kind == Kind::kExternal) return false;
      std::uint64_t local = f->local;
      if (f->kind == Kind::kGrammar) {
        local = grammar_shape(*f);
      } else if (leaf::is_leaf(f->kind)) {
        local = leaf::canonical(f->kind, *f->node, local, span);
      } else if (f->kind == Kind::kLoop && f->node->max_count == UINT32_MAX) {
        local = std::min<std::uint64_t>(local, f->node->min_count);
      }
      put(reinterpret_cast<std::uintptr_t>(f->node));
      put(static_cast<std::uint64_t>(f->kind) | std::uint64_t{f->flags} << 8 |
          std::uint64_t{static_cast<std::uint32_t>(f->state)} << 32);
      put(static_cast<std::uint32_t>(f->target));
      put(local);
    }
    put(0);  // no node is at address 0: ends one stack
  }
  return true;
}

bool MaskMemo::recall(std::uint32_t* out, std::size_t words, Result& result) const {
  auto it = slots_.find(hash_);
  if (it == slots_.end()) return false;
  const Slot& s = it->second;
  if (s.key_size != key_.size() ||
      !std::equal(key_.begin(), key_.end(), keys_.begin() + s.key_at))
    return false;
  const std::uint32_t* data = data_.data() + s.data_at;
  if (s.dense) {
    std::copy(data, data + s.data_size, out);
    std::fill(out + s.data_size, out + words, 0u);
  } else {
    std::fill(out, out + words, 0u);
    for (std::uint32_t i = 0; i < s.data_size; ++i) out[data[i] >> 5] |= 1u << (data[i] & 31);
  }
  result = s.result;
  return true;
}

void MaskMemo::remember(const std::uint32_t* bits, std::size_t words, Result result,
                        const std::vector<std::int32_t>* ids, std::size_t lookups) {
  const bool dense = result.count >= words;  // more set bits than words
  if (dense && lookups < kCostlyLookups && sighted_.insert(hash_).second) {
    bytes_ += kSightBytes;
    if (bytes_ > kBytes) forget_masks();
    return;
  }
  const bool listed = !dense && ids && ids->size() < words;
  const std::size_t size =
      key_.size() * 8 + (dense ? words : listed ? ids->size() : result.count) * 4;
  if (bytes_ + size > kBytes) forget_masks();
  bytes_ += size;
  Slot s{static_cast<std::uint32_t>(keys_.size()), static_cast<std::uint32_t>(key_.size()),
         static_cast<std::uint32_t>(data_.size()), 0, dense, result};
  keys_.insert(keys_.end(), key_.begin(), key_.end());
  if (dense) {
    data_.insert(data_.end(), bits, bits + words);
  } else if (listed) {
    data_.insert(data_.end(), ids->begin(), ids->end());
  } else {
    std::size_t w = 0;
    for (; w + 8 <= words; w += 8) {  // eight words at a time: most are zero
      std::uint64_t quad[4];
      std::memcpy(quad, bits + w, sizeof quad);
      if (!(quad[0] | quad[1] | quad[2] | quad[3])) continue;
      for (std::size_t k = 0; k < 4; ++k)
        for (std::uint64_t pair = quad[k]; pair; pair &= pair - 1)
          data_.push_back(static_cast<std::uint32_t>((w + 2 * k) * 32 + __builtin_ctzll(pair)));
    }
    for (; w < words; ++w)
      for (std::uint32_t word = bits[w]; word; word &= word - 1)
        data_.push_back(static_cast<std::uint32_t>(w * 32 + __builtin_ctz(word)));
  }
  s.data_size = static_cast<std::uint32_t>(data_.size() - s.data_at);
  slots_.insert_or_assign(hash_, s);
}

const MaskEntry& MaskComputer::entry(const Frame& leaf, std::uint32_t root, bool extending) {
  ++lookups_;
  MaskCache::Key key = MaskCache::key(leaf, root, vocab_.span());
  if (extending) key.kind |= MaskCache::kExtendingExits;
  const std::size_t h = MaskCache::KeyHash{}(key);
  Recent& slot = recent_[(h ^ h >> 29) & (recent_.size() - 1)];
  if (slot.entry && slot.key == key) return *slot.entry;
  auto [it, fresh] = seen_.try_emplace(key, nullptr);
  if (fresh) it->second = vocab_.cache().get(key, leaf, vocab_.trie(), vocab_.size());
  slot = {key, it->second.get()};
  return *it->second;
}

Positions& MaskComputer::level(std::size_t depth) {
  while (levels_.size() <= depth) levels_.push_back(std::make_unique<Positions>());
  Positions& level = *levels_[depth];
  level.clear();
  return level;
}

void MaskComputer::mark(std::uint32_t node) {
  const TrieMap::Node& n = nodes_[node];
  const std::int32_t* ids = vocab_.trie().ids(n);
  allow(ids, n.ids_end - n.ids_begin);
  if (listing_) ids_.insert(ids_.end(), ids, ids + (n.ids_end - n.ids_begin));
}

void MaskComputer::external(const Frame* f, std::uint32_t u) {
  listing_ = false;
  clear();
  // The slow path: every token below trie node u, fed whole to the stepper.
  const std::size_t depth = nodes_[u].depth;
  for (std::uint32_t c = u + 1; c < nodes_[u].end; ++c) {
    const TrieMap::Node& n = nodes_[c];
    for (std::uint32_t i = 0; i < n.ids_end - n.ids_begin; ++i) {
      std::int32_t id = vocab_.trie().ids(n)[i];
      if ((bits_[id >> 5] >> (id & 31)) & 1u) continue;
      FeedResult fed;
      Arena::Mark m = arena_.mark();
      feed(rt_, Positions{f}, std::string_view(*vocab_.token(id)).substr(depth), 0, fed);
      arena_.rewind(m);
      if (!fed.full.empty()) allow(&id, 1);
    }
  }
}

bool MaskComputer::checked(const Frame* f, std::uint32_t u, std::size_t depth) {
  // A native checked node (nodes/checked.h): the mask of the machine it wraps,
  // less the tokens its check rejects; no token is fed to it one by one.
  const auto* node = dynamic_cast<const CheckedNode*>(f->node->external.get());
  if (!node) return false;
  listing_ = false;
  Arena::Mark m = arena_.mark();
  Positions inner;
  node->positions(f, rt_, inner);
  std::vector<std::uint32_t> own((vocab_.size() + 31) / 32, 0u);
  std::uint32_t* outer = std::exchange(bits_, own.data());
  const bool zeroed = std::exchange(zeroed_, true);
  explore(u, inner, depth);
  bits_ = outer;
  zeroed_ = zeroed;
  arena_.rewind(m);
  node->filter(f, vocab_, nodes_[u].depth, own.data());
  clear();
  or_words(bits_, own.data(), own.size());
  counted_ = false;
  return true;
}

void MaskComputer::explore(std::uint32_t u, const Positions& set, std::size_t depth) {
  for (const Frame* p : set) {
    if (p->done()) {
      if (u == 0) finished_ = true;
      continue;
    }
    if (p->kind == Kind::kExternal) {
      if (!checked(p, u, depth)) external(p, u);
      continue;
    }
    // A lexeme that can take no more bytes (a newline, a quote, `;`) only ends here, and its
    // end is in `set` already (the closure pops it): its entry would hold nothing.
    if (p->kind == Kind::kLexer && (p->state < 0 || !p->node->grammar->lex_moves(p->state))) continue;
    if (p->kind == Kind::kPhrase && p->node->is_case_sensitive) {
      phrase(p, u, depth);
      continue;
    }
    if (u != 0 && nodes_[u].end - u <= kWalkNodes && p->kind != Kind::kLexer) {
      Arena::Mark m = arena_.mark();
      Positions* below = nullptr;
      ByteSet takes{};
      walk(p, u, p->state, p->local, depth, below, takes);
      arena_.rewind(m);
      continue;
    }
    const MaskEntry& e = entry(*p, u);
    if (!e.dense.empty()) {
      add_dense(e);
      listing_ = false;
    } else {
      allow(e.sparse.data(), e.sparse.size());
      if (listing_) ids_.insert(ids_.end(), e.sparse.begin(), e.sparse.end());
    }
    if (!e.lexer_groups.empty() || (any(e.extending_bytes) && !rt_.is_root(p->parent)))
      lexer_exits(p, u, e, depth);
    if (e.exit_bytes.empty()) continue;
    // The rest of a token after the leaf ends goes to the stack below it.
    Arena::Mark m = arena_.mark();
    Positions& below = level(2 * depth);
    rt_.closure(rt_.pop(p), below);
    const ByteSet takes = first_bytes(below);
    for (std::size_t k = 0; k < e.exit_bytes.size(); ++k) {
      const std::uint8_t b = e.exit_bytes[k];
      if (!((takes[b >> 6] >> (b & 63)) & 1) || !takes_byte(below, b)) continue;
      // A position takes `b`: tokens that end with it need no closure after it.
      Positions* stepped = nullptr;
      for (std::uint32_t i = e.exit_begin[k]; i < e.exit_begin[k + 1]; ++i) {
        std::uint32_t d = e.exit_nodes[i];
        mark(d);
        if (nodes_[d].end == d + 1) continue;
        if (!stepped) {
          stepped = &level(2 * depth + 1);
          rt_.advance(below, b, *stepped);
        }
        explore(d, *stepped, depth + 1);
      }
    }
    arena_.rewind(m);
  }
}

void MaskComputer::phrase(const Frame* p, std::uint32_t u, std::size_t depth) {
  const std::string& text = p->node->phrase;
  const TrieMap& trie = vocab_.trie();
  std::uint32_t at = u;
  for (std::uint64_t l = p->local; l < text.size(); ++l) {
    at = trie.child(at, static_cast<std::uint8_t>(text[l]));
    if (!at) return;
    mark(at);
  }
  if (at == u || nodes_[at].end == at + 1) return;  // nothing taken, or no token goes on
  Arena::Mark m = arena_.mark();
  Positions* below = nullptr;
  ByteSet takes{};
  exits(p, at, depth, below, takes);
  arena_.rewind(m);
}

MaskComputer::ByteSet MaskComputer::first_bytes(const Positions& set) {
  // Phrases (separators, brackets, keys: most positions after a value) say
  // their next byte outright; any other leaf may take any byte here.
  ByteSet takes{};
  for (const Frame* q : set) {
    if (q->done()) continue;
    if (q->kind != Kind::kPhrase || !q->node->is_case_sensitive)
      return {~0ull, ~0ull, ~0ull, ~0ull};
    if (q->local >= q->node->phrase.size()) continue;
    const auto b = static_cast<std::uint8_t>(q->node->phrase[q->local]);
    takes[b >> 6] |= std::uint64_t{1} << (b & 63);
  }
  return takes;
}

void MaskComputer::walk(const Frame* p, std::uint32_t u, std::int32_t state, std::uint64_t local,
                        std::size_t depth, Positions*& below, ByteSet& takes) {
  const TrieMap::Children cs = vocab_.trie().children(u);
  for (std::uint32_t k = 0; k < cs.size; ++k) {
    std::int32_t s = state;
    std::uint64_t l = local;
    if (!leaf::step(p->kind, *p->node, s, l, cs.bytes[k])) continue;
    const std::uint32_t c = cs.nodes[k];
    mark(c);
    if (nodes_[c].end == c + 1) continue;
    if (leaf::accepting(p->kind, *p->node, s, l)) exits(p, c, depth, below, takes);
    walk(p, c, s, l, depth, below, takes);
  }
}

void MaskComputer::exits(const Frame* p, std::uint32_t c, std::size_t depth, Positions*& below,
                         ByteSet& takes) {
  const TrieMap::Children ds = vocab_.trie().children(c);
  for (std::uint32_t k = 0; k < ds.size; ++k) {
    // The rest of the token after the leaf ends goes to the stack below.
    if (!below) {
      below = &level(2 * depth);
      rt_.closure(rt_.pop(p), *below);
      takes = first_bytes(*below);
    }
    const std::uint8_t b = ds.bytes[k];
    if (!((takes[b >> 6] >> (b & 63)) & 1) || !takes_byte(*below, b)) continue;
    // A position takes `b`: a token that ends with it needs no closure after it.
    const std::uint32_t d = ds.nodes[k];
    mark(d);
    if (nodes_[d].end == d + 1) continue;
    Positions& stepped = level(2 * depth + 1);
    rt_.advance(*below, b, stepped);
    explore(d, stepped, depth + 1);
  }
}

void MaskComputer::lexer_exits(const Frame* p, std::uint32_t u, const MaskEntry& e,
                               std::size_t depth) {
  // Exits come in groups by end state; in a group, bytes the lexeme cannot
  // take, then bytes it can (where only positions after the grammar go on):
  // those of `e`, then, where a parent after the grammar goes on, those of
  // its second entry (MaskEntry::extending_bytes).
  const Frame* grammar = p->parent;
  auto after_grammar = [&](Positions& positions) {  // where the grammar has ended and a parent goes on
    Positions after;
    for (const Frame* q : positions) {
      const Frame* a = q;
      while (a && a->depth > grammar->depth) a = a->parent;
      if (!q->done() && (!a || a->node != grammar->node || a->kind != Kind::kGrammar))
        after.push_back(q);
    }
    positions.swap(after);
  };
  // Every position made here stands below the trie root (runtime.h `finals`).
  struct Finals {
    Runtime& rt;
    bool was;
    ~Finals() { rt.finals = was; }
  } finals{rt_, std::exchange(rt_.finals, false)};
  // What follows the grammar does not depend on its parse: a byte that would
  // extend the lexeme is tested once against the grammar frame popped as it
  // is, so that end states whose exits no parent can take cost no parser step.
  Positions ended;
  std::array<std::int8_t, 256> follows;
  follows.fill(-1);
  const Arena::Mark start = arena_.mark();
  // A grammar at the root has nothing after it: its second entry is never of use.
  const ByteSet extending = rt_.is_root(grammar) ? ByteSet{} : e.extending_bytes;
  if (any(extending)) {
    rt_.closure(rt_.pop(rt_.with(grammar, grammar->state, grammar->local, grammar->flags | kConsumed,
                                 grammar->hist)),
                ended);
    after_grammar(ended);
  }
  auto follows_grammar = [&](std::uint8_t byte) {
    if (follows[byte] < 0) {
      Arena::Mark m = arena_.mark();
      Positions stepped;
      rt_.advance(ended, byte, stepped);
      follows[byte] = stepped.empty() ? 0 : 1;
      arena_.rewind(m);
    }
    return follows[byte] == 1;
  };
  // `extending`: the entry of exits before bytes that extend the lexeme.
  auto groups = [&](const MaskEntry& entry, bool extending) {
    const auto& exits = entry.lexer_nodes;
    auto byte = [&](std::uint32_t x) { return nodes_[exits[x]].byte; };
    // The end of the run of exits in [x, stop) that share x's byte (exits come
    // by byte). Most runs are a few exits long; a long one (every identifier
    // byte after an identifier, skipped whole where a fence follows the
    // grammar) is searched in steps that double, then halve.
    auto run_end = [&](std::uint32_t x, std::uint32_t stop) {
      const std::uint8_t b = byte(x);
      std::uint32_t good = x, step = 1, probe = x + 1;  // byte(good) == b
      while (probe < stop && byte(probe) == b) {
        good = probe;
        step *= 2;
        probe = good + step;
      }
      std::uint32_t lo = good + 1, hi = std::min(probe, stop);  // the end is in [lo, hi]
      while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (byte(mid) == b) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    for (const MaskEntry::LexerGroup& g : entry.lexer_groups) {
      if (extending) {  // every exit here needs a parent after the grammar
        bool taken = false;
        for (std::uint32_t k = g.begin; k < g.end && !taken; k = run_end(k, g.end))
          taken = follows_grammar(byte(k));
        if (!taken) continue;
      }
      Arena::Mark m = arena_.mark();
      Positions& below = level(2 * depth);
      rt_.closure(rt_.end_lexeme(p, g.state, g.local), below);
      if (extending) after_grammar(below);
      for (std::uint32_t i = g.begin; i < g.end && !below.empty();) {
        const std::uint8_t b = byte(i);
        const std::uint32_t k = run_end(i, g.end);  // [i, k): exits before `b`
        if (!extending || follows_grammar(b)) {
          // Tokens that end with this byte need only a position that takes it
          // (a leaf stepped stays in the closure); the closure, and the parser
          // steps where the byte ends a lexeme, only where tokens go on.
          bool on = false;
          for (std::uint32_t x = i; x < k && !on; ++x) on = nodes_[exits[x]].end > exits[x] + 1;
          Positions& stepped = level(2 * depth + 1);
          if (on) {
            rt_.advance(below, b, stepped);
          } else {
            for (const Frame* q : below)
              if (const Frame* s = rt_.step(q, b)) {
                stepped.push_back(s);
                break;
              }
          }
          if (!stepped.empty())
            for (std::uint32_t x = i; x < k; ++x) {
              const std::uint32_t d = exits[x];
              mark(d);
              if (nodes_[d].end > d + 1) explore(d, stepped, depth + 1);
            }
        }
        i = k;
      }
      arena_.rewind(m);
    }
  };
  groups(e, false);
  // The second entry, where a byte that would extend a lexeme here may follow the grammar.
  if (!ended.empty()) {
    const ByteSet after = first_bytes(ended);
    bool taken = false;
    for (std::size_t w = 0; w < 4 && !taken; ++w)
      for (std::uint64_t bits = after[w] & extending[w]; bits && !taken; bits &= bits - 1)
        taken = follows_grammar(static_cast<std::uint8_t>(w * 64 + __builtin_ctzll(bits)));
    if (taken) groups(entry(*p, u, true), true);
  }
  arena_.rewind(start);
}

void MaskComputer::add_dense(const MaskEntry& e) {
  if (zeroed_) {
    or_words(bits_, e.dense.data(), words_);
    counted_ = false;
  } else {
    std::copy(e.dense.begin(), e.dense.end(), bits_);
    zeroed_ = true;
    count_ = e.dense_count;
  }
}

bool MaskComputer::compute(const Positions& closed, std::uint32_t* bits) {
  bool dropped = false;
  if (vocab_.cache().generation() != generation_) {  // the cache let go: so do we
    seen_.clear();
    generation_ = vocab_.cache().generation();
    dropped = true;
  }
  drop_dead_classes(seen_, swept_size_, swept_deaths_, [&](const auto&) { dropped = true; });
  if (dropped) std::fill(recent_.begin(), recent_.end(), Recent{});
  if (seen_.size() > recent_.size() && recent_.size() < kRecentMax) {
    std::size_t slots = recent_.size();
    while (slots < seen_.size() && slots < kRecentMax) slots *= 2;
    recent_.assign(slots, Recent{});  // slots move with the size: start empty
  }
  bits_ = bits;
  words_ = (vocab_.size() + 31) / 32;
  zeroed_ = false;
  count_ = 0;
  counted_ = true;
  tally_left_ = words_ / 4;
  finished_ = false;
  ids_.clear();
  listing_ = true;
  lookups_ = 0;
  explore(0, closed, 0);
  clear();
  if (!counted_) count_ = count_bits(bits_, words_);
  return finished_;
}

}  // namespace pse
