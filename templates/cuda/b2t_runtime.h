// b2t_runtime.h -- the BASIC runtime of basic2tile's generated CUDA C++ host programs.
//
// A line-for-line port of the Python package transpiler/runtime (read its docstrings for
// the rules; this file repeats only what C++ needs): the generated C++ program and the
// reference interpreter print byte-identical text.  Header-only, C++17, standard library
// only, everything in namespace b2t.
//
//   numformat.py  format_number, format_number_trimmed, parse_number, match_number
//   faults.py     Fault (fatal, thrown), Notice + warn/notify + set_warning_hook
//   strings.py    check_string (the 18-character limit)
//   arith.py      div, mul, power, round_to_int, ABS ATN COS EXP INT LOG SGN SIN SQR TAN
//   extended.py   MOD, MAX, MIN, to_integer / to_int32 (the `%` variables)
//   rnd.py        SplitMix64, RND, RANDOMIZE, reset_rnd (bit-identical sequences)
//   inputs.py     parse_reply, ReplyRejected
//   console.py    Console: PRINT columns, zones, TAB, margin (write_string, write_number,
//                 next_zone, tab, newline, finish, and the chain con.print(x).zone()...);
//                 INPUT with the "? " prompt and re-asking (input)
//   data.py       DataPool: READ and RESTORE
//   arrays.py     Array<T>: DIM'd arrays with rounded, checked subscripts, OPTION BASE and
//                 contiguous row-major storage (data()); MAT statements (mat_read,
//                 mat_input, mat_print, mat_fill, mat_identity, mat_copy, mat_scale,
//                 mat_add, mat_sub, mat_mul, mat_product_shape, mat_transpose,
//                 mat_inverse)
//   (host code)   GosubStack, on_index (ON ... GOTO/GOSUB), EndProgram, forward_progress,
//                 ForStack, on_choice, report_break (flow.py: Microsoft BASIC's FOR
//                 stack, ON and STOP),
//                 print_fault, f32 (--precision f32 stores)
//
// Python's str counts code points; these functions count UTF-8 code points wherever the
// Python runtime calls len() on text (margins, the 18-character limit, INPUT's 72).
#pragma once

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace b2t {

// ============================================================================ text helpers

// Number of code points of UTF-8 text (bytes that do not continue a sequence).
inline std::size_t text_length(const std::string& text) {
  std::size_t n = 0;
  for (unsigned char c : text)
    n += (c & 0xC0) != 0x80;
  return n;
}

// Byte offset of code point `count` of `text` (text.size() if it has fewer).
inline std::size_t text_offset(const std::string& text, std::size_t count) {
  std::size_t i = 0;
  for (; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      if (count == 0)
        return i;
      --count;
    }
  }
  return i;
}

// ============================================================================ faults.py

inline constexpr const char* WARNING = "warning";
inline constexpr const char* ERROR = "error";

inline std::string join_message(const std::string& what, const std::string& detail) {
  return detail.empty() ? what : what + " " + detail;
}

// A fatal runtime condition: ends the program (the generated main catches it).
class Fault : public std::exception {
 public:
  explicit Fault(std::string what_text, std::string detail_text = "")
      : what_(std::move(what_text)),
        detail_(std::move(detail_text)),
        message_(join_message(what_, detail_)) {}
  const std::string& condition() const {
    return what_;
  }
  const std::string& detail() const {
    return detail_;
  }
  const std::string& message() const {
    return message_;
  }
  const char* what() const noexcept override {
    return message_.c_str();
  }

 private:
  std::string what_, detail_, message_;
};

// A non-fatal condition: a warning, or (severity ERROR) a rejected INPUT reply.
struct Notice {
  std::string what;
  std::string detail;
  const char* severity = WARNING;
  std::string message() const {
    return join_message(what, detail);
  }
};

using NoticeHook = void (*)(const Notice&);

// Where the default hook says a notice comes from: the program's file and the BASIC line
// running (the generated main() calls locate_notices with its Program's `line`).
struct NoticeLocation {
  const char* source_name = nullptr;
  const int* line = nullptr;
};

inline NoticeLocation& notice_location() {
  static NoticeLocation location;
  return location;
}

inline void locate_notices(const char* source_name, const int* line) {
  notice_location() = NoticeLocation{source_name, line};
}

// The default hook: "prog.bas: warning: line 30: division by zero" on stderr, located
// like print_fault's errors ("warning: division by zero" before locate_notices); stdout
// is flushed first so that a terminal shows both streams in order.
inline void print_notice(const Notice& notice) {
  std::fflush(stdout);
  const NoticeLocation& at = notice_location();
  if (at.source_name != nullptr) {
    const int line = at.line != nullptr ? *at.line : 0;
    const std::string where = line > 0 ? "line " + std::to_string(line) + ": " : "";
    std::fprintf(stderr, "%s: %s: %s%s\n", at.source_name, notice.severity, where.c_str(),
                 notice.message().c_str());
  } else {
    std::fprintf(stderr, "%s: %s\n", notice.severity, notice.message().c_str());
  }
  std::fflush(stderr);
}

inline NoticeHook& notice_hook_slot() {
  static NoticeHook hook = print_notice;
  return hook;
}

// Route notices to `hook` (nullptr restores print_notice); returns the previous hook.
inline NoticeHook set_warning_hook(NoticeHook hook) {
  NoticeHook previous = notice_hook_slot();
  notice_hook_slot() = hook != nullptr ? hook : print_notice;
  return previous;
}

inline void notify(const Notice& notice) {
  notice_hook_slot()(notice);
}

// Report a non-fatal ECMA-55 exception; the caller goes on with its IEEE value.
inline void warn(const std::string& what, const std::string& detail = "") {
  notify(Notice{what, detail, WARNING});
}

// ============================================================================ numformat.py

inline constexpr int SIGNIFICANT_DIGITS = 8;
inline constexpr double INT_LIMIT = 1e8;  // integers below this print exactly

// The exact PRINT text of `x`: sign or space, digits, trailing space.
inline std::string format_number(double x) {
  char buffer[64];
  if (-INT_LIMIT < x && x < INT_LIMIT) {
    const long long i = static_cast<long long>(x);  // truncation, as Python's int()
    if (static_cast<double>(i) == x) {
      std::snprintf(buffer, sizeof buffer, i >= 0 ? " %lld " : "%lld ", i);
      return buffer;
    }
  } else if (std::isnan(x)) {
    return " NAN ";
  } else if (x == HUGE_VAL) {
    return " INF ";
  } else if (x == -HUGE_VAL) {
    return "-INF ";
  }
  // "d.ddddddde+XX": the 8 correctly rounded significant digits and the exponent.
  std::snprintf(buffer, sizeof buffer, "%.7e", std::fabs(x));
  const std::string text = buffer;
  const std::size_t e_pos = text.find('e');
  const int e = std::atoi(text.c_str() + e_pos + 1);
  std::string digits = text.substr(0, 1) + text.substr(2, e_pos - 2);
  digits.erase(digits.find_last_not_of('0') + 1);
  const int n = static_cast<int>(digits.size());
  const std::string sign = x < 0 ? "-" : " ";
  if (0 <= e && e < SIGNIFICANT_DIGITS) {
    if (n <= e + 1)
      return sign + digits + std::string(e + 1 - n, '0') + " ";
    return sign + digits.substr(0, e + 1) + "." + digits.substr(e + 1) + " ";
  }
  if (e < 0 && n - e <= SIGNIFICANT_DIGITS + 1) {
    return sign + "." + std::string(-e - 1, '0') + digits + " ";
  }
  return sign + digits.substr(0, 1) + "." + digits.substr(1) + "E" + (e > 0 ? "+" : "-") +
         std::to_string(std::abs(e)) + " ";
}

// The PRINT text without spaces, as bas55 quotes operands in its messages: "-2.5".
inline std::string format_number_trimmed(double x) {
  std::string text = format_number(x);
  std::string out;
  for (char c : text)
    if (c != ' ')
      out += c;
  return out;
}

inline bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// The end of the longest ECMA-55 numeric constant starting at `pos`, or std::string::npos:
//   [+-]? ( digits [ "." [digits] ] | "." digits ) [ "E" [+-]? digits ]
inline std::size_t match_number(const std::string& text, std::size_t pos = 0) {
  const std::size_t n = text.size();
  std::size_t i = pos;
  if (i < n && (text[i] == '+' || text[i] == '-'))
    ++i;
  if (i < n && is_digit(text[i])) {
    while (i < n && is_digit(text[i]))
      ++i;
    if (i < n && text[i] == '.') {
      ++i;
      while (i < n && is_digit(text[i]))
        ++i;
    }
  } else if (i + 1 < n && text[i] == '.' && is_digit(text[i + 1])) {
    i += 2;
    while (i < n && is_digit(text[i]))
      ++i;
  } else {
    return std::string::npos;
  }
  if (i < n && text[i] == 'E') {  // an exponent only if digits follow
    std::size_t j = i + 1;
    if (j < n && (text[j] == '+' || text[j] == '-'))
      ++j;
    if (j < n && is_digit(text[j])) {
      while (j < n && is_digit(text[j]))
        ++j;
      i = j;
    }
  }
  return i;
}

// The correctly rounded double of a numeric constant's text (overflow: +-inf,
// underflow: 0 or a subnormal, as Python's float()).
inline double number_value(const std::string& text) {
  return std::strtod(text.c_str(), nullptr);
}

// If all of `text` is a numeric constant: store its value in *value and return true.
inline bool parse_number(const std::string& text, double* value) {
  if (match_number(text, 0) != text.size())
    return false;
  *value = number_value(text);
  return true;
}

// ============================================================================ strings.py

inline constexpr std::size_t STRING_MAX_LENGTH = 18;
inline constexpr const char* STRING_TOO_LONG = "string datum contains too many characters";

// `value` itself if a string variable may hold it, else a fatal Fault.
inline std::string check_string(std::string value) {
  if (text_length(value) > STRING_MAX_LENGTH)
    throw Fault(STRING_TOO_LONG);
  return value;
}

// ============================================================================ arith.py

inline constexpr double INF = HUGE_VAL;
inline constexpr double NAN_VALUE = std::numeric_limits<double>::quiet_NaN();
inline constexpr double TWO52 = 4503599627370496.0;  // every double this large is an integer
inline constexpr int INT_MIN_VALUE = -2147483647 - 1;

inline constexpr const char* DIVISION_BY_ZERO = "division by zero";
inline constexpr const char* OPERATION_OVERFLOW = "operation overflow";
inline constexpr const char* ZERO_TO_NEGATIVE = "zero raised to negative value";
inline constexpr const char* NEGATIVE_TO_NON_INTEGER =
    "negative value raised to non-integral value";
inline constexpr const char* DOMAIN_ERROR = "function domain error";

// a / b; division by zero warns and gives the IEEE result (+-inf, NaN for 0/0).
inline double div(double a, double b) {
  if (b == 0.0) {
    warn(DIVISION_BY_ZERO);
    if (a == 0.0 || std::isnan(a))
      return NAN_VALUE;
    return (a > 0.0) == !std::signbit(b) ? INF : -INF;
  }
  return a / b;
}

// a * b; an overflow to +-inf warns (bas55 stays quiet only for INF * INF).
inline double mul(double a, double b) {
  const double r = a * b;
  if (std::isinf(r) && (!std::isinf(a) || !std::isinf(b)))
    warn(OPERATION_OVERFLOW, "(*)");
  return r;
}

inline bool is_integral(double y) {
  return std::isinf(y) || (std::isfinite(y) && y == std::floor(y));
}

// Whether bas55 reports a `^` whose result is 0 or infinite (arith._pow_out_of_range).
inline bool pow_out_of_range(double a, double b) {
  if (std::isinf(a) || std::isinf(b) ||
      std::isinf(std::fabs(b) * std::fabs(std::log(std::fabs(a)))))
    return false;
  const double magnitude = std::pow(std::fabs(a), std::fabs(b));
  return std::isinf(magnitude) || magnitude == 0.0;
}

// a ^ b (ECMA-55 involution).
inline double power(double a, double b) {
  if (a == 0.0) {
    if (b < 0.0) {
      warn(ZERO_TO_NEGATIVE, "(0 ^ " + format_number_trimmed(b) + ")");
      return INF;
    }
    if (b > 0.0)
      return 0.0;  // bas55 gives +0 also for (-0) ^ 3
  } else if (a < 0.0 && !is_integral(b)) {
    throw Fault(NEGATIVE_TO_NON_INTEGER,
                "(" + format_number_trimmed(a) + " ^ " + format_number_trimmed(b) + ")");
  }
  const double r = std::pow(a, b);
  if ((r == 0.0 || std::isinf(r)) && pow_out_of_range(a, b))
    warn(OPERATION_OVERFLOW);
  return r;
}

// bas55's rounding of TAB and ON ... GOTO arguments: (int) floor(x + 0.5), and INT_MIN
// for values that do not fit a C int or NaN (what that conversion yields on x86-64).
inline int round_to_int(double x) {
  const double r = x + 0.5;
  if (-2147483648.0 <= r && r < 2147483648.0)
    return static_cast<int>(std::floor(r));
  return INT_MIN_VALUE;
}

inline Fault domain_error(const char* name, double x) {
  return Fault(DOMAIN_ERROR, std::string(name) + "(" + format_number_trimmed(x) + ")");
}

// Python's math functions raise ValueError where libm returns NaN for a non-NaN
// argument, or an infinity for a finite one (CPython's math_1 without can_overflow).
inline bool python_value_error(double result, double x) {
  return (std::isnan(result) && !std::isnan(x)) || (std::isinf(result) && std::isfinite(x));
}

inline double ABS(double x) {
  return std::fabs(x);
}
inline double ATN(double x) {
  return std::atan(x);
}

inline double COS(double x) {
  const double r = std::cos(x);
  if (python_value_error(r, x))
    throw domain_error("COS", x);
  return r;
}

inline double EXP(double x) {
  const double r = std::exp(x);
  if (std::isinf(r) && std::isfinite(x)) {
    warn(OPERATION_OVERFLOW, "EXP(" + format_number_trimmed(x) + ")");
    return INF;
  }
  if (r == 0.0 && x != -INF)
    warn(OPERATION_OVERFLOW, "EXP(" + format_number_trimmed(x) + ")");
  return r;
}

// The greatest integer not above x (ECMA-55 INT is floor, not truncation).
inline double INT(double x) {
  if (-TWO52 < x && x < TWO52 && x != 0.0)
    return std::floor(x);
  return x;  // already integral (zero keeps its sign), infinite or NaN
}

inline double LOG(double x) {
  if (x > 0.0)
    return std::log(x);
  if (std::isnan(x))
    return x;
  throw domain_error("LOG", x);
}

inline double SGN(double x) {
  if (x > 0.0)
    return 1.0;
  if (x == 0.0)
    return 0.0;
  return -1.0;  // also for NaN, as bas55
}

inline double SIN(double x) {
  const double r = std::sin(x);
  if (python_value_error(r, x))
    throw domain_error("SIN", x);
  return r;
}

inline double SQR(double x) {
  if (x < 0.0)
    throw domain_error("SQR", x);
  return std::sqrt(x);
}

inline double TAN(double x) {
  const double r = std::tan(x);
  if (python_value_error(r, x))
    throw domain_error("TAN", x);
  return r;  // (the Python runtime's TAN overflow warning cannot be reached: see above)
}

// ============================================================================ extended.py

inline constexpr const char* INTEGER_OVERFLOW = "integer overflow";

// a MOD b: the remainder with the sign of a (C's fmod); MOD 0 warns and gives NaN.
inline double MOD(double a, double b) {
  if (b == 0.0) {
    warn(DIVISION_BY_ZERO);
    return NAN_VALUE;
  }
  return std::fmod(a, b);  // NaN for an infinite dividend, as the Python runtime
}

// The larger / smaller of two numbers; if one is NaN, the other.
inline double MAX(double a, double b) {
  if (std::isnan(a))
    return b;
  return b > a ? b : a;
}

inline double MIN(double a, double b) {
  if (std::isnan(a))
    return b;
  return b < a ? b : a;
}

// The value a `%` variable stores for x: floor(x + 0.5), fatal outside 32 bits.
inline double to_integer(double x) {
  const double r = x + 0.5;
  if (-2147483648.0 <= r && r < 2147483648.0)
    return std::floor(r);
  throw Fault(INTEGER_OVERFLOW, "(" + format_number_trimmed(x) + ")");
}

// The value a `%` variable (an int32) stores for x, fatal outside 32 bits.
inline std::int32_t to_int32(double x) {
  return static_cast<std::int32_t>(to_integer(x));
}

// A value stored with --precision f32: rounded to the nearest float (overflow: +-inf).
inline double f32(double x) {
  return static_cast<double>(static_cast<float>(x));
}

// ============================================================================ rnd.py

inline constexpr std::uint64_t INITIAL_STATE = 0x853C49E6748FEA9BULL;
inline constexpr const char* SEED_VARIABLE = "BASIC2TILE_SEED";

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed = INITIAL_STATE) : state(seed) {}
  std::uint64_t next_u64() {
    state += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  double random() {
    return static_cast<double>(next_u64() >> 11) * 0x1.0p-53;
  }
  std::uint64_t state;
};

inline SplitMix64& generator() {
  static SplitMix64 instance;
  return instance;
}

// Python's str.isspace() for the characters an environment variable can hold in ASCII.
inline bool is_python_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f');
}

inline int digit_value(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z')
    return c - 'A' + 10;
  return 99;
}

// Python's int(text, base) modulo 2**64 (a sign, the 0x prefix for base 16, single
// underscores between digits); false if Python would raise ValueError.
inline bool parse_python_int(const std::string& text, int base, std::uint64_t* value) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  bool negative = false;
  if (i < n && (text[i] == '+' || text[i] == '-'))
    negative = text[i++] == '-';
  bool underscore_ok = false;  // an underscore may follow a digit (or the base prefix)
  if (base == 16 && i + 1 < n && text[i] == '0' && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
    i += 2;
    underscore_ok = true;
  }
  std::uint64_t result = 0;
  bool any_digit = false;
  for (; i < n; ++i) {
    if (text[i] == '_') {
      if (!underscore_ok)
        return false;
      underscore_ok = false;
      continue;
    }
    const int d = digit_value(text[i]);
    if (d >= base)
      return false;
    result = result * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
    any_digit = true;
    underscore_ok = true;
  }
  if (!any_digit || (n > 0 && text[n - 1] == '_'))
    return false;
  *value = negative ? 0 - result : result;
  return true;
}

// The seed RANDOMIZE uses: $BASIC2TILE_SEED if set (decimal, or hexadecimal with 0x),
// else the time in nanoseconds.
inline std::uint64_t randomize_seed() {
  const char* raw = std::getenv(SEED_VARIABLE);
  std::string text = raw != nullptr ? raw : "";
  std::size_t first = 0, last = text.size();
  while (first < last && is_python_space(text[first]))
    ++first;
  while (last > first && is_python_space(text[last - 1]))
    --last;
  text = text.substr(first, last - first);
  if (text.empty()) {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
  }
  const bool hex = text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  std::uint64_t seed = 0;
  if (!parse_python_int(text, hex ? 16 : 10, &seed))
    throw Fault(std::string(SEED_VARIABLE) + " is not an integer", "(" + text + ")");
  return seed;
}

// The next pseudo-random number in [0, 1).
inline double RND() {
  return generator().random();
}

inline void RANDOMIZE() {
  generator().state = randomize_seed();
}

// Restart the sequence, as at program start.
inline void reset_rnd(std::uint64_t state = INITIAL_STATE) {
  generator().state = state;
}

// ============================================================================ inputs.py

enum class Kind { NUMBER, STRING };
inline constexpr Kind NUMBER = Kind::NUMBER;
inline constexpr Kind STRING = Kind::STRING;

inline constexpr std::size_t MAX_REPLY_LENGTH = 72;
inline constexpr const char* LINE_TOO_LONG = "line too long";
inline constexpr const char* INVALID_CHARACTERS = "invalid characters found";
inline constexpr const char* TOO_FEW = "insuficient input data";  // bas55's spelling
inline constexpr const char* TOO_MANY = "too much input data";
inline constexpr const char* TYPE_MISMATCH = "type mismatch for variable";
inline constexpr const char* SYNTAX_ERROR = "syntax error";
inline constexpr const char* UNTERMINATED_STRING = "string not terminated";
inline constexpr const char* CONSTANT_OVERFLOW = "numeric constant overflow";

// One value of an INPUT reply: `number` for a NUMBER variable, `text` for a STRING one.
struct Value {
  double number = 0.0;
  std::string text;
};

// The reply does not fit the variable list; `what` and `detail` say why, as bas55.
struct ReplyRejected {
  std::string what;
  std::string detail;
};

inline bool is_unquoted_character(char c) {
  return (c >= 'A' && c <= 'Z') || is_digit(c) || c == ' ' || c == '+' || c == '-' || c == '.';
}

inline bool is_valid_reply_character(char c) {
  return (c >= ' ' && c <= '?') || (c >= 'A' && c <= 'Z') || c == '^' || c == '_';
}

inline void skip_spaces(const std::string& text, std::size_t* pos) {
  while (*pos < text.size() && text[*pos] == ' ')
    ++*pos;
}

// The values of a reply (without its newline) for variables of the given kinds.
// Throws ReplyRejected.
// `strict`: ECMA-55's limits (72-character replies, 18-character strings).
inline std::vector<Value> parse_reply(std::string reply, const std::vector<Kind>& kinds,
                                      bool strict = true) {
  if (strict && text_length(reply) > MAX_REPLY_LENGTH)
    throw ReplyRejected{LINE_TOO_LONG, ""};
  for (char& c : reply)
    if (c >= 'a' && c <= 'z')
      c = static_cast<char>(c - 'a' + 'A');
  for (std::size_t i = 0; i < reply.size(); ++i) {
    if (!is_valid_reply_character(reply[i])) {
      const std::size_t end = i + text_offset(reply.substr(i), 1);  // the whole code point
      throw ReplyRejected{INVALID_CHARACTERS, "(" + reply.substr(i, end - i) + ")"};
    }
  }
  const std::size_t end = reply.size();
  std::size_t pos = 0;
  bool after_comma = false;
  std::vector<Value> values;
  for (Kind kind : kinds) {
    const std::size_t start = pos;  // bas55 quotes an overflowing number with its spaces
    skip_spaces(reply, &pos);
    if (pos == end)
      throw ReplyRejected{TOO_FEW, ""};
    Value value;
    if (kind == NUMBER) {
      const std::size_t stop = match_number(reply, pos);
      if (stop == std::string::npos) {
        const char first = reply[pos];
        if (first == '"' || is_unquoted_character(first))
          throw ReplyRejected{TYPE_MISMATCH, ""};
        throw ReplyRejected{SYNTAX_ERROR, ""};
      }
      value.number = number_value(reply.substr(pos, stop - pos));
      if (std::isinf(value.number))
        throw ReplyRejected{CONSTANT_OVERFLOW, "(" + reply.substr(start, stop - start) + ")"};
      pos = stop;
    } else if (reply[pos] == '"') {
      const std::size_t close = reply.find('"', pos + 1);
      if (close == std::string::npos)
        throw ReplyRejected{UNTERMINATED_STRING, ""};
      value.text = reply.substr(pos + 1, close - pos - 1);
      pos = close + 1;
    } else if (is_unquoted_character(reply[pos])) {
      std::size_t stop = pos;
      while (stop < end && is_unquoted_character(reply[stop]))
        ++stop;
      std::size_t last = stop;
      while (last > pos && reply[last - 1] == ' ')
        --last;
      value.text = reply.substr(pos, last - pos);
      pos = stop;
    } else {
      throw ReplyRejected{SYNTAX_ERROR, ""};
    }
    if (strict && kind == STRING && value.text.size() > STRING_MAX_LENGTH)  // ASCII by now
      throw ReplyRejected{STRING_TOO_LONG, ""};
    values.push_back(std::move(value));
    skip_spaces(reply, &pos);
    after_comma = pos < end && reply[pos] == ',';
    if (after_comma)
      ++pos;
    else if (pos < end)
      throw ReplyRejected{SYNTAX_ERROR, ""};
  }
  skip_spaces(reply, &pos);
  if (pos < end || after_comma)
    throw ReplyRejected{TOO_MANY, ""};
  return values;
}

// ============================================================================ console.py

inline constexpr int MARGIN = 80;
inline constexpr int ZONE_WIDTH = 16;
inline constexpr const char* INPUT_PROMPT = "? ";
inline constexpr const char* INVALID_TAB = "invalid TAB argument";
inline constexpr const char* INPUT_EOF = "error on input stream";

// The BASIC program's terminal: output column tracking and INPUT replies.
class Console {
 public:
  // `strict`: ECMA-55's limits on INPUT replies (parse_reply).
  explicit Console(std::FILE* out = stdout, std::FILE* in = stdin, bool strict = true)
      : out_(out), in_(in), strict_(strict) {}

  // The 0-based column where the next character goes.
  int column() const {
    return column_;
  }

  void write_string(const std::string& value) {
    const std::size_t length = text_length(value);
    if (column_ + length > static_cast<std::size_t>(MARGIN)) {
      if (column_ > 0)
        put("\n");
      std::string text = value;
      while (text_length(text) > static_cast<std::size_t>(MARGIN)) {
        const std::size_t cut = text_offset(text, MARGIN);
        put(text.substr(0, cut) + "\n");
        text = text.substr(cut);
      }
      put(text);
      column_ = static_cast<int>(text_length(text));
      return;
    }
    put(value);
    column_ += static_cast<int>(length);
  }

  void write_number(double x) {
    const std::string text = format_number(x);
    const int length = static_cast<int>(text.size());
    if (column_ + length > MARGIN) {
      put("\n" + text);
      column_ = length;
    } else {
      put(text);
      column_ += length;
    }
  }

  // The `,` separator: the next zone, or a new line from the last zone.
  void next_zone() {
    const int width = ZONE_WIDTH - column_ % ZONE_WIDTH;
    if (column_ + width >= MARGIN) {
      newline();
    } else {
      put(std::string(width, ' '));
      column_ += width;
    }
  }

  Console& tab(double x) {
    int n = round_to_int(x);
    if (n < 1) {
      warn(INVALID_TAB, "(" + format_number_trimmed(n) + ")");
      n = 1;
    }
    const int target = (n - 1) % MARGIN;
    if (column_ > target) {
      put("\n");
      column_ = 0;
    }
    if (target > column_) {
      put(std::string(target - column_, ' '));
      column_ = target;
    }
    return *this;
  }

  Console& newline() {
    put("\n");
    column_ = 0;
    return *this;
  }

  // One PRINT statement as a chain, item by item (C++17 runs a chain of member calls
  // left to right, so an item is evaluated after the previous one is printed):
  //   con.print("X = ").print(x).zone().tab(30).print(y).newline();
  Console& print(const std::string& text) {
    write_string(text);
    return *this;
  }
  Console& print(const char* text) {
    return print(std::string(text));
  }
  Console& print(double x) {
    write_number(x);
    return *this;
  }
  Console& zone() {
    next_zone();
    return *this;
  }

  // End of the program (normal or not): end an unfinished line and flush.
  void finish() {
    if (column_ != 0)
      newline();
    std::fflush(out_);
  }

  // One INPUT statement: prompt, read a reply, ask again until it fits `kinds`.
  // `prompt` nullptr: only "? ".  End of input is fatal.
  std::vector<Value> input(const char* prompt, const std::vector<Kind>& kinds) {
    for (;;) {
      if (prompt != nullptr)
        put(prompt);
      put(INPUT_PROMPT);
      std::fflush(out_);
      column_ = 0;
      std::string line;
      if (!read_line(&line))
        throw Fault(INPUT_EOF);
      try {
        return parse_reply(line, kinds, strict_);
      } catch (const ReplyRejected& rejected) {
        notify(Notice{rejected.what, rejected.detail, ERROR});
      }
    }
  }

  std::vector<Value> input(const std::vector<Kind>& kinds) {
    return input(nullptr, kinds);
  }

 private:
  void put(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), out_);
  }

  // One line without its "\n" (and a "\r" before it), as Python's sys.stdin.readline()
  // and Console.input see it.  False at end of input with nothing read.
  bool read_line(std::string* line) {
    int c = std::getc(in_);
    if (c == EOF)
      return false;
    while (c != EOF && c != '\n') {
      line->push_back(static_cast<char>(c));
      c = std::getc(in_);
    }
    if (!line->empty() && line->back() == '\r')
      line->pop_back();
    return true;
  }

  std::FILE* out_;
  std::FILE* in_;
  bool strict_;
  int column_ = 0;
};

// ============================================================================ data.py

inline constexpr const char* INSUFFICIENT_DATA = "insufficient data for READ";
inline constexpr const char* STRING_INTO_NUMBER = "reading string into numeric variable";

// One datum of a DATA statement: its text without quotes, and whether it was quoted.
struct DataItem {
  std::string text;
  bool quoted = false;
};

// The program's DATA items and the READ pointer.
class DataPool {
 public:
  DataPool(std::initializer_list<DataItem> items) : DataPool(std::vector<DataItem>(items)) {}
  // `strict`: ECMA-55's 18-character limit on string data.
  template <std::size_t N>
  explicit DataPool(const DataItem (&items)[N], bool strict = true)
      : DataPool(std::vector<DataItem>(items, items + N), strict) {}
  explicit DataPool(const std::vector<DataItem>& items, bool strict = true) : strict_(strict) {
    for (const DataItem& item : items) {
      std::string text = item.text;
      if (!item.quoted) {  // an unquoted datum has no surrounding spaces
        const std::size_t first = text.find_first_not_of(' ');
        text = first == std::string::npos
                   ? ""
                   : text.substr(first, text.find_last_not_of(' ') - first + 1);
      }
      double value = 0.0;
      const bool numeric = !item.quoted && parse_number(text, &value);
      texts_.push_back(text);
      numbers_.push_back(value);
      numeric_.push_back(numeric);
    }
  }

  std::size_t size() const {
    return texts_.size();
  }

  // The index of the item the next READ takes.
  std::size_t position() const {
    return position_;
  }

  void restore(std::size_t position = 0) {
    position_ = position;
  }

  double read_number() {
    const std::size_t i = position_;
    if (i >= numbers_.size())
      throw Fault(INSUFFICIENT_DATA);
    if (!numeric_[i])
      throw Fault(STRING_INTO_NUMBER);
    position_ = i + 1;
    if (std::isinf(numbers_[i]))
      warn(CONSTANT_OVERFLOW);
    return numbers_[i];
  }

  std::string read_string() {
    const std::size_t i = position_;
    if (i >= texts_.size())
      throw Fault(INSUFFICIENT_DATA);
    if (strict_)
      check_string(texts_[i]);
    position_ = i + 1;
    return texts_[i];
  }

 private:
  std::vector<std::string> texts_;
  std::vector<double> numbers_;
  std::vector<bool> numeric_;
  std::size_t position_ = 0;
  bool strict_;
};

// ============================================================================ arrays

inline constexpr const char* SUBSCRIPT_OUT_OF_RANGE = "subscript out of range";
inline constexpr const char* NOT_DIMENSIONED = "array used before its DIM statement ran";
inline constexpr const char* BAD_BOUND = "invalid DIM bound";
inline constexpr std::size_t TOO_MANY_ELEMENTS = std::size_t{1} << 28;
inline constexpr const char* MAT_TOO_LARGE = "MAT result larger than the array's DIM";

// A BASIC array (interpreter/arrays.py): rank 1 or 2, subscripts from `base` (OPTION
// BASE) to the upper bounds, rounded as floor(x + 0.5) and checked; elements stored
// contiguously in row-major order (data() is what a kernel's device copy mirrors).
template <class T>
class Array {
 public:
  Array(const char* name, int base, int rank)
      : name_(name), base_(base), upper_(static_cast<std::size_t>(rank), base - 1) {}

  // An array with constant bounds, allocated at once (DIM with constants, or implicit).
  Array(const char* name, int base, std::initializer_list<int> upper)
      : name_(name), base_(base), upper_(upper) {
    allocate(std::vector<double>(upper.begin(), upper.end()));
  }

  // DIM: give the array its bounds and zero (or empty) elements.
  void allocate(const std::vector<double>& upper) {
    const std::size_t size = checked_bounds(upper);
    data_.assign(size, T());
    size_ = size;
    allocated_ = true;
  }

  // A MAT statement's new dimensions: at most the elements the array was created with.
  // The elements are left as they are; the MAT statement writes them all.
  void reshape(const std::vector<double>& upper) {
    const std::vector<int> previous = upper_;
    const std::size_t size = checked_bounds(upper);
    if (!allocated_) {
      upper_ = previous;
      throw Fault(NOT_DIMENSIONED, name_);
    }
    if (size > data_.size()) {
      std::string text;
      for (int u : upper_)
        text += (text.empty() ? "" : ",") + std::to_string(u);
      upper_ = previous;
      throw Fault(MAT_TOO_LARGE, name_ + "(" + text + ")");
    }
    size_ = size;
  }

  const std::string& name() const {
    return name_;
  }
  int base() const {
    return base_;
  }
  int rank() const {
    return static_cast<int>(upper_.size());
  }
  int upper(int dim) const {
    return upper_[static_cast<std::size_t>(dim)];
  }
  int extent(int dim) const {
    return upper_[static_cast<std::size_t>(dim)] - base_ + 1;
  }
  std::vector<int> extents() const {
    std::vector<int> out;
    for (int d = 0; d < rank(); ++d)
      out.push_back(extent(d));
    return out;
  }
  // The number of elements (the first size() of the storage: a MAT statement may have
  // given the array fewer elements than its DIM).
  std::size_t size() const {
    return size_;
  }
  T* data() {
    return data_.data();
  }
  const T* data() const {
    return data_.data();
  }

  // The element A(i) / A(i, j), subscripts rounded and checked (evaluate the subscripts
  // before calling: C++ leaves the order of function arguments unspecified).
  template <class... Subscripts>
  T& operator()(Subscripts... subscripts) {
    return data_[flat_index({static_cast<double>(subscripts)...})];
  }

  // Row-major position of an element; a fatal fault outside the bounds.
  std::size_t flat_index(std::initializer_list<double> subscripts) const {
    std::size_t index = 0;
    std::size_t d = 0;
    for (double s : subscripts) {
      const double t = s + 0.5;
      if (!(t >= base_ && t < upper_[d] + 1.0))
        throw out_of_range(subscripts);
      index = index * static_cast<std::size_t>(extent(static_cast<int>(d))) +
              static_cast<std::size_t>(static_cast<long long>(t) - base_);
      ++d;
    }
    return index;
  }

  // Whether subscripts first, first + 1, ..., first + count - 1 along `dim` (a loop a kernel
  // runs) are all valid (none for count 0; runtime/arrays.py covers).
  bool covers(int dim, double first, int count) const {
    if (count <= 0)
      return true;
    const double lo = std::floor(first + 0.5), hi = std::floor(first + count - 1 + 0.5);
    return allocated_ && base_ <= lo && hi <= upper_[static_cast<std::size_t>(dim)];
  }

 private:
  // Checks DIM bounds (rounded as subscripts), makes them the array's; its element count.
  std::size_t checked_bounds(const std::vector<double>& upper) {
    std::vector<double> bounds;
    double size = 1.0;  // exact while it matters: the limit is 2**28
    for (double u : upper) {
      const double r = std::isfinite(u) ? std::floor(u + 0.5) : u;
      if (!std::isfinite(r) || !(r >= base_))
        throw Fault(BAD_BOUND, name_ + "(" + format_number_trimmed(u) + ")");
      bounds.push_back(r);
      size *= r - base_ + 1.0;
    }
    if (!(size <= static_cast<double>(TOO_MANY_ELEMENTS))) {
      std::string text;
      char digits[400];
      for (double r : bounds) {
        std::snprintf(digits, sizeof digits, "%.0f", r);  // the exact integer, as Python's int
        text += (text.empty() ? "" : ",") + std::string(digits);
      }
      throw Fault(BAD_BOUND, name_ + "(" + text + "): too many elements");
    }
    upper_.assign(bounds.begin(), bounds.end());
    return static_cast<std::size_t>(size);
  }

  Fault out_of_range(std::initializer_list<double> subscripts) const {
    if (!allocated_)
      return Fault(NOT_DIMENSIONED, name_);
    std::string shown, bounds;
    for (double s : subscripts) {
      const double t = s + 0.5;
      shown +=
          (shown.empty() ? "" : ",") + format_number_trimmed(std::isfinite(t) ? std::floor(t) : t);
    }
    for (int u : upper_) {
      bounds += (bounds.empty() ? "" : ", ") + std::to_string(base_) + " to " + std::to_string(u);
    }
    return Fault(SUBSCRIPT_OUT_OF_RANGE, name_ + "(" + shown + ") [" + bounds + "]");
  }

  std::string name_;
  int base_;
  std::vector<int> upper_;
  std::vector<T> data_;  // the storage, as large as the first DIM made it
  std::size_t size_ = 0;
  bool allocated_ = false;
};

// ============================================================================ MAT statements
// As runtime/arrays.py (the Python host programs'): the same shapes, the same order of
// floating-point operations, the same messages.

inline constexpr const char* SHAPE_MISMATCH = "MAT dimensions do not match";
inline constexpr const char* SINGULAR = "singular matrix";
inline constexpr const char* NOT_SQUARE = "matrix is not square";
inline constexpr const char* NEEDS_MATRIX = "MAT needs a two-dimensional array";

// A double stored in an element: rounded to float, or (for `%` arrays) truncated as
// NumPy's float-to-int32 assignment does (INT_MIN when it does not fit).
template <class T>
T element_from(double x) {
  if constexpr (std::is_same_v<T, std::int32_t>) {
    if (!(x > -2147483649.0 && x < 2147483648.0))
      return INT_MIN_VALUE;
    return static_cast<std::int32_t>(x);
  } else {
    return static_cast<T>(x);
  }
}

template <class T>
std::string shape_text(const Array<T>& a) {
  std::string text;
  for (int e : a.extents())
    text += (text.empty() ? "" : "x") + std::to_string(e);
  return text;
}

// The elements as doubles, row by row.
template <class T>
std::vector<double> numbers_of(const Array<T>& a) {
  return std::vector<double>(a.data(), a.data() + a.size());
}

// The target takes the shape `extents` (at most its DIM's elements) and the values.
template <class T, class V>
void store_values(Array<T>& target, const std::vector<int>& extents, const std::vector<V>& values) {
  std::vector<double> upper;
  for (int e : extents)
    upper.push_back(target.base() + e - 1.0);
  target.reshape(upper);
  for (std::size_t k = 0; k < values.size(); ++k) {
    if constexpr (std::is_same_v<T, std::string>) {
      target.data()[k] = values[k];
    } else {
      target.data()[k] = element_from<T>(values[k]);
    }
  }
}

// MAT READ: every element, row by row, from DATA.
template <class T>
void mat_read(Array<T>& target, DataPool& pool) {
  for (std::size_t k = 0; k < target.size(); ++k) {
    if constexpr (std::is_same_v<T, std::string>) {
      target.data()[k] = pool.read_string();
    } else {
      target.data()[k] = element_from<T>(pool.read_number());
    }
  }
}

// MAT INPUT: one reply per row (a vector: one reply for all of it).
template <class T>
void mat_input(Array<T>& target, Console& con) {
  constexpr bool text = std::is_same_v<T, std::string>;
  const std::size_t size = target.size();
  const std::size_t width = target.rank() == 2 ? static_cast<std::size_t>(target.extent(1)) : size;
  const std::vector<Kind> kinds(width, text ? STRING : NUMBER);
  for (std::size_t start = 0; start < size; start += width > 0 ? width : 1) {
    const std::vector<Value> values = con.input(kinds);
    for (std::size_t k = 0; k < width && start + k < size; ++k) {
      if constexpr (text) {
        target.data()[start + k] = values[k].text;
      } else {
        target.data()[start + k] = element_from<T>(values[k].number);
      }
    }
  }
}

// MAT PRINT of one array: each row on its own line, zoned after `,` (the default) or
// packed after `;`.  A blank line goes between two arrays (con.newline() before).
template <class T>
void mat_print(Console& con, const Array<T>& source, bool zoned) {
  if (con.column() != 0)
    con.newline();
  const std::size_t width =
      source.rank() == 2 ? static_cast<std::size_t>(source.extent(1)) : source.size();
  for (std::size_t start = 0; start < source.size(); start += width) {
    for (std::size_t j = 0; j < width; ++j) {
      if (j > 0 && zoned)
        con.next_zone();
      if constexpr (std::is_same_v<T, std::string>) {
        con.write_string(source.data()[start + j]);
      } else {
        con.write_number(static_cast<double>(source.data()[start + j]));
      }
    }
    con.newline();
  }
  if (source.size() == 0)
    con.newline();
}

// MAT A = ZER, CON (after a.reshape() for new dimensions).
template <class T>
void mat_fill(Array<T>& target, double value) {
  for (std::size_t k = 0; k < target.size(); ++k)
    target.data()[k] = element_from<T>(value);
}

// MAT A = IDN.
template <class T>
void mat_identity(Array<T>& target) {
  if (target.rank() != 2)
    throw Fault(NEEDS_MATRIX, "IDN (" + target.name() + ")");
  const int rows = target.extent(0), cols = target.extent(1);
  if (rows != cols)
    throw Fault(NOT_SQUARE, "IDN (" + target.name() + " is " + shape_text(target) + ")");
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      target.data()[i * cols + j] = element_from<T>(i == j ? 1.0 : 0.0);
}

// MAT A = B.
template <class T, class U>
void mat_copy(Array<T>& target, const Array<U>& source) {
  if (static_cast<const void*>(&target) == static_cast<const void*>(&source))
    return;
  if constexpr (std::is_same_v<T, std::string>) {
    store_values(target, source.extents(),
                 std::vector<std::string>(source.data(), source.data() + source.size()));
  } else {
    store_values(target, source.extents(), numbers_of(source));
  }
}

// MAT A = (k) * B.
template <class T, class U>
void mat_scale(Array<T>& target, double factor, const Array<U>& source) {
  std::vector<double> values = numbers_of(source);
  for (double& x : values)
    x = factor * x;
  store_values(target, source.extents(), values);
}

template <class U, class V>
Fault shape_mismatch(const Array<U>& left, const Array<V>& right) {
  return Fault(SHAPE_MISMATCH, "(" + left.name() + " is " + shape_text(left) + ", " + right.name() +
                                   " is " + shape_text(right) + ")");
}

// MAT A = B + C and MAT A = B - C.
template <class T, class U, class V>
void mat_add(Array<T>& target, const Array<U>& left, const Array<V>& right, double sign = 1.0) {
  if (left.extents() != right.extents())
    throw shape_mismatch(left, right);
  const std::vector<double> a = numbers_of(left), b = numbers_of(right);
  std::vector<double> values(a.size());
  for (std::size_t k = 0; k < a.size(); ++k)
    values[k] = sign > 0 ? a[k] + b[k] : a[k] - b[k];
  store_values(target, left.extents(), values);
}

template <class T, class U, class V>
void mat_sub(Array<T>& target, const Array<U>& left, const Array<V>& right) {
  mat_add(target, left, right, -1.0);
}

// MAT A = B * C: the matrix product, each element summed left to right from zero (as
// the loop S = S + B(I, K) * C(K, J) would), without overflow warnings.  A vector on the
// left is a row, on the right a column.
template <class T, class U, class V>
void mat_mul(Array<T>& target, const Array<U>& left, const Array<V>& right) {
  if (left.rank() == 1 && right.rank() == 1)
    throw Fault(NEEDS_MATRIX, "(" + left.name() + " * " + right.name() + ")");
  const std::size_t rows = left.rank() == 2 ? static_cast<std::size_t>(left.extent(0)) : 1;
  const std::size_t inner =
      left.rank() == 2 ? static_cast<std::size_t>(left.extent(1)) : left.size();
  const std::size_t right_rows =
      right.rank() == 2 ? static_cast<std::size_t>(right.extent(0)) : right.size();
  const std::size_t cols = right.rank() == 2 ? static_cast<std::size_t>(right.extent(1)) : 1;
  if (inner != right_rows)
    throw shape_mismatch(left, right);
  const std::vector<double> a = numbers_of(left), b = numbers_of(right);
  std::vector<double> values;
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) {
      double sum = 0.0;
      for (std::size_t k = 0; k < inner; ++k)
        sum = sum + a[i * inner + k] * b[k * cols + j];
      values.push_back(sum);
    }
  }
  std::vector<int> extents;
  if (left.rank() == 1) {
    extents = {static_cast<int>(cols)};
  } else if (right.rank() == 1) {
    extents = {static_cast<int>(rows)};
  } else {
    extents = {static_cast<int>(rows), static_cast<int>(cols)};
  }
  store_values(target, extents, values);
}

// MAT A = B * C of two matrices whose product a GPU kernel computes: the checks mat_mul
// makes, then the target's new shape rows(B) x cols(C).
template <class T, class U, class V>
void mat_product_shape(Array<T>& target, const Array<U>& left, const Array<V>& right) {
  if (left.extent(1) != right.extent(0))
    throw shape_mismatch(left, right);
  target.reshape({target.base() + left.extent(0) - 1.0, target.base() + right.extent(1) - 1.0});
}

// MAT A = TRN(B).
template <class T, class U>
void mat_transpose(Array<T>& target, const Array<U>& source) {
  if (source.rank() != 2)
    throw Fault(NEEDS_MATRIX, "TRN(" + source.name() + ")");
  const int rows = source.extent(0), cols = source.extent(1);
  const std::vector<double> m = numbers_of(source);
  std::vector<double> values;
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      values.push_back(m[static_cast<std::size_t>(i * cols + j)]);
  store_values(target, {cols, rows}, values);
}

// MAT A = INV(B): Gauss-Jordan elimination with partial pivoting.
template <class T, class U>
void mat_inverse(Array<T>& target, const Array<U>& source) {
  if (source.rank() != 2)
    throw Fault(NEEDS_MATRIX, "INV(" + source.name() + ")");
  const std::size_t n = static_cast<std::size_t>(source.extent(0));
  if (source.extent(0) != source.extent(1))
    throw Fault(NOT_SQUARE, "INV(" + source.name() + " is " + shape_text(source) + ")");
  const std::vector<double> m = numbers_of(source);
  std::vector<std::vector<double>> a(n, std::vector<double>(2 * n, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j)
      a[i][j] = m[i * n + j];
    a[i][n + i] = 1.0;
  }
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;  // the first row with the largest magnitude, as Python's max
    for (std::size_t r = col + 1; r < n; ++r)
      if (std::fabs(a[r][col]) > std::fabs(a[pivot][col]))
        pivot = r;
    if (a[pivot][col] == 0.0)
      throw Fault(SINGULAR, "INV(" + source.name() + ")");
    std::swap(a[col], a[pivot]);
    const double p = a[col][col];
    for (double& x : a[col])
      x = x / p;
    for (std::size_t r = 0; r < n; ++r) {
      if (r != col && a[r][col] != 0.0) {
        const double f = a[r][col];
        for (std::size_t j = 0; j < 2 * n; ++j)
          a[r][j] = a[r][j] - f * a[col][j];
      }
    }
  }
  std::vector<double> values;
  for (std::size_t i = 0; i < n; ++i)
    values.insert(values.end(), a[i].begin() + static_cast<long>(n), a[i].end());
  store_values(target, {static_cast<int>(n), static_cast<int>(n)}, values);
}

// ============================================================================ control flow

inline constexpr const char* RETURN_WITHOUT_GOSUB = "RETURN without GOSUB";
inline constexpr const char* GOSUB_TOO_DEEP = "GOSUB nested too deeply";
inline constexpr const char* ON_OUT_OF_RANGE = "ON index out of range";

// ON e GOTO / GOSUB with `count` targets: the 1-based choice, fatal out of range.
inline int on_index(double value, int count) {
  const int i = round_to_int(value);
  if (1 <= i && i <= count)
    return i;
  throw Fault(ON_OUT_OF_RANGE,
              "(" + std::to_string(i) + "; 1 to " + std::to_string(count) + " allowed)");
}

// Microsoft BASIC's control flow (runtime/flow.py).
inline constexpr const char* NEXT_WITHOUT_FOR = "NEXT without FOR";
inline constexpr const char* FOR_WITHOUT_NEXT = "FOR without NEXT";
inline constexpr const char* ILLEGAL_FUNCTION_CALL = "Illegal function call";
inline constexpr const char* OVERFLOW_ERROR = "Overflow";

// ON e GOTO / GOSUB outside strict mode: the 1-based target, or 0 to go on with the next
// statement (an index of 0 or past the targets); the index is rounded half away from
// zero, below 0 or above 255 is "Illegal function call", beyond 16 bits "Overflow".
inline int on_choice(double value, int count) {
  if (std::isnan(value))
    throw Fault(ILLEGAL_FUNCTION_CALL, "(ON index NaN)");
  if (!(-32768.5 < value && value < 32767.5))
    throw Fault(OVERFLOW_ERROR, "(ON index " + format_number_trimmed(value) + ")");
  const double rounded = std::floor(std::fabs(value) + 0.5);
  const int index = static_cast<int>(value < 0.0 ? -rounded : rounded);
  if (index < 0 || index > 255)
    throw Fault(ILLEGAL_FUNCTION_CALL, "(ON index " + std::to_string(index) + ")");
  return index <= count ? index : 0;
}

// Microsoft BASIC's STOP: end the line being printed, then "Break in 100" (or "Break"
// for a line without a number).
inline void report_break(Console& con, const char* line) {
  con.finish();
  con.print(*line != '\0' ? std::string("Break in ") + line : std::string("Break")).newline();
}

// The FOR loops that are not blocks, innermost last, named by the label of their FOR:
// a FOR enters its loop (dropping an older entry of it), its NEXT finds it (dropping the
// loops above, left by a jump) or fails, and the loop leaves when it ends.
class ForStack {
 public:
  void enter(const char* loop) {
    for (std::size_t i = 0; i < loops_.size(); ++i) {
      if (std::strcmp(loops_[i], loop) == 0) {
        loops_.erase(loops_.begin() + static_cast<long>(i));
        break;
      }
    }
    loops_.push_back(loop);
  }
  void find(const char* loop) {
    for (std::size_t depth = loops_.size(); depth-- > 0;) {
      if (std::strcmp(loops_[depth], loop) == 0) {
        loops_.resize(depth + 1);
        return;
      }
    }
    throw Fault(NEXT_WITHOUT_FOR);
  }
  void leave() {
    loops_.pop_back();
  }

 private:
  std::vector<const char*> loops_;
};

// The GOSUB return stack of a dispatch loop: the labels to return to, at most
// `max_depth` of them (256 in strict mode, as bas55).
class GosubStack {
 public:
  explicit GosubStack(std::size_t max_depth) : max_depth_(max_depth) {}
  void push(int return_to) {
    if (stack_.size() >= max_depth_)
      throw Fault(GOSUB_TOO_DEEP, "(" + std::to_string(max_depth_) + " levels)");
    stack_.push_back(return_to);
  }
  int pop() {
    if (stack_.empty())
      throw Fault(RETURN_WITHOUT_GOSUB);
    const int label = stack_.back();
    stack_.pop_back();
    return label;
  }

 private:
  std::size_t max_depth_;
  std::vector<int> stack_;
};

// END or STOP inside a subroutine: thrown to leave every GOSUB at once.
struct EndProgram {};

// The message of a fatal error, as the Python host programs print it:
// "prog.bas: error: line 150: string datum contains too many characters".
// Called in each iteration of a loop that may never end (a WHILE, a GOTO loop, a FOR whose
// body changes its variable): C++ lets a compiler assume that a loop without I/O, volatile
// or atomic operations ends, and delete it; an endless BASIC loop must stay endless.
inline void forward_progress() {
  static volatile unsigned char pulse = 0;
  pulse = static_cast<unsigned char>(pulse + 1);
}

inline void print_fault(const char* source_name, int line, const Fault& fault) {
  std::fflush(stdout);
  const std::string where = line > 0 ? "line " + std::to_string(line) + ": " : "";
  std::fprintf(stderr, "%s: error: %s%s\n", source_name, where.c_str(), fault.what());
  std::fflush(stderr);
}

// Whether everything printed reached stdout; if not (closed, full disk), says so on
// stderr: the program must not end as a success.  A closed pipe ends the program by
// SIGPIPE before this, as it ends any C tool.
inline bool output_written(const char* source_name) {
  if (std::fflush(stdout) == 0 && !std::ferror(stdout))
    return true;
  const int error = errno;
  std::fprintf(stderr, "%s: error: cannot write standard output%s%s\n", source_name,
               error != 0 ? ": " : "", error != 0 ? std::strerror(error) : "");
  return false;
}

}  // namespace b2t
