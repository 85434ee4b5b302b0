// adapeer: the ada URL parser (https://github.com/ada-url/ada, C++, WHATWG
// URL) as a peer of "webcap canon": it reads URLs one per line from stdin
// and writes each one's href (ada::url_aggregator) one per line to stdout,
// an empty line when ada rejects it. The I/O is as lean as webcap canon's:
// one large read buffer, lines found with memchr, one large write buffer.
// bench/peers.sh compiles it against ada's single-file release (ada.h and
// ada.cpp, made by singleheader/amalgamate.py) when ADA_DIR names them.
#include "ada.cpp"
#include "ada.h"

#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

int main() {
  std::vector<char> in(1 << 20);
  std::vector<char> out;
  out.reserve(1 << 20);
  size_t have = 0;
  auto flush = [&]() {
    fwrite(out.data(), 1, out.size(), stdout);
    out.clear();
  };
  for (;;) {
    size_t n = fread(in.data() + have, 1, in.size() - have, stdin);
    have += n;
    size_t start = 0;
    for (;;) {
      const char* nl = static_cast<const char*>(memchr(in.data() + start, '\n', have - start));
      if (nl == nullptr) {
        if (n != 0) break;  // an incomplete last line: read more
        if (start == have) break;
        nl = in.data() + have;  // the last line has no newline
      }
      std::string_view line(in.data() + start, nl - (in.data() + start));
      auto u = ada::parse<ada::url_aggregator>(line);
      if (u) {
        std::string_view href = u->get_href();
        out.insert(out.end(), href.begin(), href.end());
      }
      out.push_back('\n');
      if (out.size() >= (1 << 20)) flush();
      start = nl - in.data() + 1;
      if (start > have) start = have;
    }
    if (n == 0) break;
    memmove(in.data(), in.data() + start, have - start);
    have -= start;
    if (have == in.size()) in.resize(in.size() * 2);  // a line longer than the buffer
  }
  flush();
  return 0;
}
