// An append-only sequence shared by the paths that grew from one another.
// Each path holds a length and sees the first `size()` items of a shared
// buffer. Extending at the tip (the buffer holds exactly this path's items)
// appends in place, so one generation costs amortised O(1) per token instead
// of a copy of everything so far; extending an older prefix (a sibling path
// already appended) copies that prefix into a buffer of its own.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

namespace pse {

template <class Seq>
class SharedLog {
 public:
  using value_type = typename Seq::value_type;

  SharedLog() : buf_(std::make_shared<Seq>()) {}

  std::size_t size() const { return len_; }
  bool empty() const { return len_ == 0; }
  const value_type* data() const { return buf_->data(); }
  const value_type& operator[](std::size_t i) const { return (*buf_)[i]; }
  Seq copy() const { return Seq(buf_->begin(), buf_->begin() + static_cast<std::ptrdiff_t>(len_)); }

  /// This log followed by items [first, last).
  template <class It>
  SharedLog extended(It first, It last) const {
    SharedLog out(*this);
    if (buf_->size() != len_) out.buf_ = std::make_shared<Seq>(copy());
    out.buf_->insert(out.buf_->end(), first, last);
    out.len_ = out.buf_->size();
    return out;
  }

 private:
  std::shared_ptr<Seq> buf_;
  std::size_t len_ = 0;
};

}  // namespace pse
