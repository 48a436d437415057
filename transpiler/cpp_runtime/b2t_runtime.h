// b2t_runtime.h -- the BASIC runtime of basic2tile's generated CUDA C++ host programs.
//
// A line-for-line port of the Python package runtime/basic2tile_runtime (read its docstrings for
// the rules; this file repeats only what C++ needs): the generated C++ program and the
// reference interpreter print byte-identical text.  Header-only, C++17, standard library
// only, everything in namespace b2t.
//
//   numformat.py  format_number, format_number_trimmed, parse_number, match_number
//   gwerrors.py   gw_code, gw_message (GW-BASIC's error numbers)
//   faults.py     Fault (fatal, thrown), Notice + warn/notify + set_warning_hook
//   trap.py       ErrorTrap (ON ERROR GOTO, RESUME), ERR, ERL, raise_error (ERROR n)
//   strings.py    check_string (the 18-character limit)
//   stringfns.py  Microsoft's string functions (LEFTS, MIDS, VAL, ...), concat, mid_assign
//   ms_inputs.py  parse_ms_reply (Microsoft's INPUT replies, "?Redo from start")
//   arith.py      div, mul, power, round_to_int, ABS ATN COS COSH EXP INT LOG SGN SIN SINH
//                 SQR TAN TANH
//   extended.py   MOD, MAX, MIN, to_integer / to_int32 (the `%` variables)
//   rnd.py        SplitMix64, RND, RANDOMIZE, reset_rnd (bit-identical sequences)
//   inputs.py     parse_reply, ReplyRejected
//   using.py      PRINT USING: parse_format, format_string_field, format_number_field,
//                 UsingWriter (the chain con.print_using(fmt).item(x).end())
//   files.py      FileTable: OPEN, CLOSE, file_output (PRINT #, WRITE #), file_input,
//                 file_line, file_eof, file_lof, KILL, NAME; reset_files; ItemWriter (WRITE)
//   console.py    Console: PRINT columns, zones, TAB, margin (write_string, write_number,
//                 next_zone, tab, newline, finish, and the chain con.print(x).zone()...);
//                 INPUT with the "? " prompt and re-asking (input), spc, line_input,
//                 inkey and INKEYS
//   data.py       DataPool: READ and RESTORE
//   arrays.py     Array<T>: DIM'd arrays with rounded, checked subscripts, OPTION BASE and
//                 contiguous row-major storage (data()); MAT statements (mat_read,
//                 mat_input, mat_print, mat_fill, mat_copy, mat_scale, mat_binary,
//                 mat_function, mat_product_shape; their parts mat_identity, mat_add,
//                 mat_sub, mat_mul, mat_transpose, mat_inverse)
//   (host code)   GosubStack, on_index (ON ... GOTO/GOSUB), EndProgram, forward_progress,
//                 ForStack, on_choice, report_break, report_error (flow.py: Microsoft
//                 BASIC's FOR stack, ON, STOP and an error's screen line),
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
#include <ctime>
#include <exception>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
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

// ============================================================================ gwerrors.py

// GW-BASIC's error numbers and messages; -1: a condition with none (no trap catches it).
inline const std::map<int, std::string>& gw_messages() {
  static const std::map<int, std::string> messages{
      {1, "NEXT without FOR"},
      {2, "Syntax error"},
      {3, "RETURN without GOSUB"},
      {4, "Out of DATA"},
      {5, "Illegal function call"},
      {6, "Overflow"},
      {7, "Out of memory"},
      {8, "Undefined line number"},
      {9, "Subscript out of range"},
      {10, "Duplicate Definition"},
      {11, "Division by zero"},
      {12, "Illegal direct"},
      {13, "Type mismatch"},
      {14, "Out of string space"},
      {15, "String too long"},
      {16, "String formula too complex"},
      {17, "Can't continue"},
      {18, "Undefined user function"},
      {19, "No RESUME"},
      {20, "RESUME without error"},
      {22, "Missing operand"},
      {23, "Line buffer overflow"},
      {24, "Device Timeout"},
      {25, "Device Fault"},
      {26, "FOR without NEXT"},
      {27, "Out of paper"},
      {29, "WHILE without WEND"},
      {30, "WEND without WHILE"},
      {50, "FIELD overflow"},
      {51, "Internal error"},
      {52, "Bad file number"},
      {53, "File not found"},
      {54, "Bad file mode"},
      {55, "File already open"},
      {57, "Device I/O error"},
      {58, "File already exists"},
      {61, "Disk full"},
      {62, "Input past end"},
      {63, "Bad record number"},
      {64, "Bad file name"},
      {66, "Direct statement in file"},
      {67, "Too many files"},
      {68, "Device Unavailable"},
      {69, "Communication buffer overflow"},
      {70, "Permission Denied"},
      {71, "Disk not Ready"},
      {72, "Disk media error"},
      {73, "Advanced Feature"},
      {74, "Rename across disks"},
      {75, "Path/File access error"},
      {76, "Path not found"},
      {77, "Deadlock"},
  };
  return messages;
}

inline std::string gw_message(int code) {
  const auto found = gw_messages().find(code);
  return found != gw_messages().end() ? found->second : "Unprintable error";
}

inline int gw_code(const std::string& what) {
  static const std::map<std::string, int> ours{
      {"insufficient data for READ", 4},
      {"reading string into numeric variable", 2},
      {"subscript out of range", 9},
      {"function domain error", 5},
      {"negative value raised to non-integral value", 5},
      {"division by zero", 11},
      {"operation overflow", 6},
      {"integer overflow", 6},
      {"GOSUB nested too deeply", 7},
      {"invalid DIM bound", 5},
      {"string datum contains too many characters", 15},
  };
  const auto found = ours.find(what);
  if (found != ours.end())
    return found->second;
  for (const auto& [code, text] : gw_messages())
    if (text == what)
      return code;
  return -1;
}

// ============================================================================ faults.py

inline constexpr const char* WARNING = "warning";
inline constexpr const char* ERROR = "error";

inline std::string join_message(const std::string& what, const std::string& detail) {
  return detail.empty() ? what : what + " " + detail;
}

// A fatal runtime condition: ends the program (the generated main catches it), unless
// an error trap catches it: code() is its GW-BASIC number (-1: none, no trap catches it).
class Fault : public std::exception {
 public:
  explicit Fault(std::string what_text, std::string detail_text = "", int code = -1)
      : what_(std::move(what_text)),
        detail_(std::move(detail_text)),
        message_(join_message(what_, detail_)),
        code_(code >= 0 ? code : gw_code(what_)) {}
  int code() const {
    return code_;
  }
  bool trappable = true;
  // The line GW-BASIC names (ERL, "... in 50") when it is not the failed statement's: the
  // NEXT a FOR found naming another variable, the DATA line of an item READ could not
  // read (-1: the statement's own).
  int line = -1;
  Fault& in_line(int number) {
    line = number;
    return *this;
  }
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
  int code_;
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

// While an error trap is armed (ErrorTrap), the warnings that are GW-BASIC errors
// (Division by zero, Overflow) are errors: they jump to the handler instead.
inline bool& notices_trapped() {
  static bool trapped = false;
  return trapped;
}

// Microsoft BASIC shows those warnings on its screen, which is the program's output
// ("Division by zero", then the program goes on): the screen Console of a program
// running as Microsoft BASIC sets how to write a line there.
using ScreenLine = void (*)(const std::string&);
inline ScreenLine& warnings_screen() {
  static ScreenLine show = nullptr;
  return show;
}

inline void notify(const Notice& notice) {
  const int code = notice.severity == WARNING ? gw_code(notice.what) : -1;
  if (notices_trapped() && code >= 0)
    throw Fault(notice.what, notice.detail);
  if (warnings_screen() != nullptr && code >= 0)
    warnings_screen()(gw_message(code));
  notice_hook_slot()(notice);
}

// Report a non-fatal ECMA-55 exception; the caller goes on with its IEEE value.
// Whether a GW-BASIC warning stops an 8-bit machine's program (machines.py, below).
inline bool machine_stops_on(const std::string& what);

// A non-fatal exception; the caller goes on with its value (on the 8-bit machines,
// GW-BASIC's Overflow and Division by zero stop the program instead).
inline void warn(const std::string& what, const std::string& detail = "") {
  if (machine_stops_on(what))
    throw Fault(what, detail);
  notify(Notice{what, detail, WARNING});
}

// ============================================================================ trap.py

// GW-BASIC's error trapping over the labels of a dispatch loop (read trap.py's rules).
class ErrorTrap {
 public:
  ErrorTrap() {
    notices_trapped() = false;
  }

  // ON ERROR GOTO handler (-1: GOTO 0; inside a handler the error is fatal at once, at
  // its own line).
  void on_error(int handler, int& line) {
    if (handler < 0 && handling_) {
      line = erl;
      throw fault_;
    }
    handler_ = handler;
    notices_trapped() = handler >= 0;
  }

  // Where to go on after `fault` in statement `failed` of `line` (`after`: the statement
  // after it); throws `fault` again when no trap takes it.
  int catch_fault(const Fault& fault, int failed, int after, int line) {
    if (handler_ < 0 || handling_ || fault.code() < 0 || !fault.trappable)
      throw fault;
    fault_ = fault;
    handling_ = true;
    failed_ = failed;
    after_ = after;
    err = fault.code();
    erl = fault.line >= 0 ? fault.line : line;
    return handler_;
  }

  int resume() {
    leave();
    return failed_;
  }

  int resume_next() {
    leave();
    return after_;
  }

  int resume_at(int target) {
    leave();
    return target;
  }

  // RESUME n to a line the program does not have: out of the handler, then "Undefined
  // line number" (trapped again, as PC-BASIC does).
  int resume_undefined() {
    leave();
    throw Fault(gw_message(8), "", 8);
  }

  // The program ran past its last line: "No RESUME" inside a handler.
  void finish() {
    if (handling_) {
      handling_ = false;
      throw Fault(gw_message(19), "", 19);
    }
  }

  int err = 0;
  int erl = 0;

 private:
  void leave() {
    if (!handling_) {
      Fault fault(gw_message(20), "", 20);
      fault.trappable = false;  // PC-BASIC: fatal even with a trap armed
      throw fault;
    }
    handling_ = false;
    err = 0;
    notices_trapped() = handler_ >= 0;
  }

  int handler_ = -1;
  bool handling_ = false;
  Fault fault_{""};
  int failed_ = 0, after_ = 0;
};

// The trap of the program running (ERR and ERL read it).
inline ErrorTrap& error_trap() {
  static ErrorTrap trap;
  return trap;
}

inline double ERR() {
  return error_trap().err;
}

inline double ERL() {
  return error_trap().erl;
}

// ERROR n: 1 to 255 (a number without a message is "Unprintable error"); 0 and beyond 255
// "Illegal function call", beyond the 16-bit integers "Overflow".
inline void raise_error(double value) {
  if (!(value > -32768.5 && value < 32767.5))
    throw Fault(gw_message(6), "", 6);
  const int whole = static_cast<int>(std::fabs(value) + 0.5);
  const int code = value >= 0 ? whole : -whole;
  if (code < 1 || code > 255)
    throw Fault(gw_message(5), "", 5);
  throw Fault(gw_message(code), "", code);
}

// ============================================================================ dialect.py

// The dialect the program runs in (use_dialect, after rnd.py, sets it and restarts RND).
enum class Dialect { ecma55, extended, ms, qbasic, dartmouth, applesoft, commodore, msx };

inline Dialect& dialect_slot() {
  static Dialect dialect = Dialect::extended;
  return dialect;
}

inline Dialect current_dialect() {
  return dialect_slot();
}

// The 8-bit machines' Microsoft BASICs (MACHINES): GW-BASIC's rules, their own numbers.
inline bool eight_bit_machine() {
  const Dialect d = dialect_slot();
  return d == Dialect::applesoft || d == Dialect::commodore || d == Dialect::msx;
}

// Microsoft BASIC's rules: GW-BASIC's (ms), QuickBASIC's (qbasic), the 8-bit machines'.
inline bool microsoft() {
  return dialect_slot() == Dialect::ms || dialect_slot() == Dialect::qbasic ||
         eight_bit_machine();
}

// QuickBASIC's numbers where they differ from GW-BASIC's (dialect.py quickbasic).
inline bool quickbasic() {
  return dialect_slot() == Dialect::qbasic;
}

// The first row and column MAT statements work on, or the array's OPTION BASE where that
// is higher (MAT_FIRST_SUBSCRIPT): Dartmouth BASIC leaves row and column 0 alone.
inline int mat_first_subscript() {
  return dialect_slot() == Dialect::dartmouth ? 1 : 0;
}

// ============================================================================ msformat.py

// Numbers as Microsoft BASIC prints them (GW-BASIC's decimal conversion on the mantissa
// bits; see msformat.py).  `bits` is 32 for singles, 64 for doubles; (e, m) is the value
// m * 2^(e - 128 - bits), m with its top bit set.
using wide = unsigned __int128;

struct MsDen {
  int e;
  wide m;
};

inline bool ms_den_greater(const MsDen& a, const MsDen& b) {
  return a.e != b.e ? a.e > b.e : a.m > b.m;
}

class MsFormat {
 public:
  MsFormat(int bits, int digits, char letter) : bits_(bits), digits_(digits), letter_(letter) {
    upper_ = wide(1) << bits;
    top_bit_ = wide(1) << (bits - 1);
    ten_ = wide(0xA) << (bits - 4);
  }

  // GW-BASIC's conversion of x > 0 to `digits` decimal digits: N, with x ~ N * 10^*e10.
  // N has `digits` digits, or is 10^digits where the rounding carried (*e10 one decade
  // low, as GW-BASIC leaves it); for no digits (0 or fewer) it is 0 or 1 (x divided by
  // ten until below 1, rounded).  PRINT USING converts with the digits a field shows.
  wide decimal_digits(double x, int digits, int* e10) const {
    const MsDen top = digits > 0 ? just_under(digits) : just_under(0);
    const MsDen bottom = digits > 0 ? just_under(digits - 1) : MsDen{0, 0};
    MsDen v = den(x);
    *e10 = 0;
    while (ms_den_greater(v, top)) {
      v = divide_by_ten(v);
      ++*e10;
    }
    v = round_guard(v);
    while (ms_den_greater(bottom, v)) {
      v = multiply_by_ten(v);
      --*e10;
    }
    v = round_guard(v);
    const int shift = v.e - (128 + bits_ - 8);
    wide scaled = shift > 0 ? v.m << shift : v.m >> -shift;
    if (scaled & 0x80)
      scaled += 0x80;
    return scaled >> 8;
  }

  // (N, e10) for PRINT: D digits N, x ~ N * 10^e10.
  wide decimal(double x, int* e10) const {
    if (quickbasic())
      return rounded_decimal(x, e10);
    wide number = decimal_digits(x, digits_, e10);
    wide limit = 1;  // 10^digits: a number rounded up to D + 1 digits is one decade more
    for (int k = 0; k < digits_; ++k)
      limit *= 10;
    if (number >= limit) {
      number /= 10;
      ++*e10;
    }
    return number;
  }

  // (N, e10) of x rounded correctly to D significant digits (QuickBASIC's IEEE
  // conversion, msformat.rounded_decimal).
  wide rounded_decimal(double x, int* e10) const {
    char text[64];
    std::snprintf(text, sizeof text, "%.*e", digits_ - 1, x);
    wide number = 0;
    const char* p = text;
    for (; *p != 'e'; ++p)
      if (*p >= '0' && *p <= '9')
        number = number * 10 + static_cast<wide>(*p - '0');
    *e10 = std::atoi(p + 1) - (digits_ - 1);
    return number;
  }

  // The text of x: a sign or a space, the digits; no trailing space.
  std::string text(double x) const {
    if (x == 0.0)
      return " 0";
    if (!std::isfinite(x))  // never a BASIC value here; in a message, as bas55
      return std::isnan(x) ? " NAN" : (x > 0 ? " INF" : "-INF");
    const std::string sign = x < 0 ? "-" : " ";
    int e10 = 0;
    const wide number = decimal(std::fabs(x), &e10);
    std::string digits = to_decimal_string(number);
    if (static_cast<int>(digits.size()) < digits_)
      digits = std::string(digits_ - digits.size(), '0') + digits;
    digits.erase(digits.find_last_not_of('0') + 1);
    const int first = e10 + digits_ - 1;
    const int count = static_cast<int>(digits.size());
    if (first > digits_ - 1 || count - first > digits_ + 1) {
      std::string mantissa = digits.substr(0, 1);
      if (count > 1)
        mantissa += "." + digits.substr(1);
      char exponent[16];
      std::snprintf(exponent, sizeof exponent, "%c%c%02d", letter_, first < 0 ? '-' : '+',
                    std::abs(first));
      return sign + mantissa + exponent;
    }
    const int before = first + 1;
    if (before >= count)
      return sign + digits + std::string(before - count, '0');
    if (before > 0)
      return sign + digits.substr(0, before) + "." + digits.substr(before);
    return sign + "." + std::string(-before, '0') + digits;
  }

 private:
  MsDen den(double x) const {
    int exponent = 0;
    const double fraction = std::frexp(x, &exponent);  // at most 53 bits of mantissa
    if (bits_ <= 53)
      return MsDen{exponent + 128, wide(static_cast<std::uint64_t>(std::ldexp(fraction, bits_)))};
    const auto mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
    return MsDen{exponent + 128, wide(mantissa) << (bits_ - 53)};
  }

  MsDen divide_by_ten(MsDen v) const {
    wide quotient = 0, rest = v.m, divisor = ten_;
    for (int i = 0; i < bits_; ++i) {
      quotient <<= 1;
      if (rest > divisor) {
        rest -= divisor;
        quotient |= 1;
      }
      divisor >>= 1;
    }
    v.e -= 3;
    while (quotient < top_bit_) {
      v.e -= 1;
      quotient <<= 1;
    }
    v.m = quotient;
    return v;
  }

  MsDen multiply_by_ten(MsDen v) const {
    wide total = v.m + (v.m >> 2);
    v.e += 3;
    if (total >= upper_) {
      v.e += 1;
      total >>= 1;
    }
    if (v.m & 3)
      total |= 1;
    v.m = total;
    return v;
  }

  // The largest value of the format below 10^power: one unit of the last mantissa bit
  // (above the 8 guard bits) less, normalised again (GW-BASIC's value below 1 is 1 - 2^-23
  // for singles).
  MsDen just_under(int power) const {
    double x = 1.0;
    for (int i = 0; i < power; ++i)
      x *= 10.0;
    MsDen v = den(x);
    v.m -= 0x100;
    if (v.m < top_bit_) {
      v.e -= 1;
      v.m <<= 1;
    }
    return v;
  }

  MsDen round_guard(MsDen v) const {
    if ((v.m & 0xFF) > 0x7F)
      v.m += 0x100;
    if (v.m >= upper_) {
      v.e += 1;
      v.m >>= 1;
    }
    v.m &= ~wide(0xFF);
    return v;
  }

  static std::string to_decimal_string(wide n) {
    std::string out;
    do {
      out.insert(out.begin(), static_cast<char>('0' + static_cast<int>(n % 10)));
      n /= 10;
    } while (n != 0);
    return out;
  }

  int bits_, digits_;
  char letter_;
  wide upper_, top_bit_, ten_;
};

inline const MsFormat& ms_single_format() {
  static const MsFormat single(32, 7, 'E');
  return single;
}

inline const MsFormat& ms_double_format() {
  static const MsFormat double_format(64, 16, 'D');
  return double_format;
}

// The PRINT text of a single (rounded to a float first) or a double, without the
// trailing space: " .3333334", "-1.5E-07", " .3333333333333333".
inline std::string format_single(double x) {
  if (std::fabs(x) > std::numeric_limits<float>::max())  // an infinity as a float
    return ms_single_format().text(std::isnan(x) ? x : std::copysign(INFINITY, x));
  return ms_single_format().text(static_cast<double>(static_cast<float>(x)));
}

inline std::string format_double(double x) {
  return ms_double_format().text(x);
}

// A number PRINT shows as a double (the generated code wraps double-precision items).
struct Double {
  double value;
};

// VAL's value in Microsoft BASIC, whose type its text decides when the program runs: a
// double prints its 16 digits where it is printed as it is (PRINT, STR$, WRITE, PRINT
// USING); anywhere else it is its value.  (Python's VAL returns a Double there.)
struct ValNumber {
  double value;
  bool is_double;
  operator double() const {  // NOLINT: a number wherever a number is wanted
    return value;
  }
};

// ============================================================================ machines.py

// How an 8-bit machine's BASIC prints numbers (MACHINE_NUMBERS): significant digits, the
// smallest power of ten printed unscaled, what goes before a number that is not negative,
// what PRINT writes after every number, the comma's zone width.
struct MachineNumbers {
  int digits;
  int smallest_fixed_exponent;
  const char* positive_sign;
  const char* after;
  int zone_width;
  bool integers_floor;  // a % variable stores INT(x), not GW-BASIC's rounding (cint)
  int first_column;     // the leftmost column's number for TAB and POS: the Commodore's 0
  const char* input_question = "? ";  // what INPUT writes to ask for a reply
  bool question_after_prompt = true;  // Applesoft's INPUT "AGE";A writes only AGE
};

// The current machine's row, or nullptr for the other dialects.
inline const MachineNumbers* machine_numbers() {
  static const MachineNumbers applesoft{9, -2, "", "", 16, true, 1, "?", false};
  static const MachineNumbers commodore{9, -2, " ", " ", 10, true, 0};
  static const MachineNumbers msx{14, -2, " ", " ", 14, false, 1};
  switch (dialect_slot()) {
    case Dialect::applesoft:
      return &applesoft;
    case Dialect::commodore:
      return &commodore;
    case Dialect::msx:
      return &msx;
    default:
      return nullptr;
  }
}

// What INPUT writes after the program's prompt (if it has one) to ask for the reply:
// GW-BASIC's "? " unless `question` is false, the machine's own otherwise (input_question).
inline std::string input_question(bool has_prompt, bool question) {
  const MachineNumbers* machine = machine_numbers();
  const std::string mark = machine != nullptr ? machine->input_question : "? ";
  if (!has_prompt)
    return mark;
  if (!question || (machine != nullptr && !machine->question_after_prompt))
    return "";
  return mark;
}

// The conditions GW-BASIC reports and goes on from but these machines stop on (`fatal`:
// the same two for every machine).
inline bool machine_stops_on(const std::string& what) {
  return machine_numbers() != nullptr && (what == "Division by zero" || what == "Overflow");
}

// The number of the leftmost column for TAB and POS (GW-BASIC's 1).
inline int first_column() {
  const MachineNumbers* machine = machine_numbers();
  return machine != nullptr ? machine->first_column : 1;
}

// `x` as the machine prints it, without PRINT's space after it (STR$'s text): Commodore's
// " .333333333", Applesoft's ".333333333", "-1.5E-03", "1E+09".
inline std::string machine_number_text(double x, const MachineNumbers& m) {
  const std::string positive = m.positive_sign;
  if (x == 0)
    return positive + "0";
  const std::string sign = x < 0 ? "-" : positive;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*e", m.digits - 1, std::fabs(x));
  const std::string text = buffer;
  const std::size_t e_pos = text.find('e');
  const int e = std::atoi(text.c_str() + e_pos + 1);
  std::string digits = text.substr(0, 1) + (e_pos > 2 ? text.substr(2, e_pos - 2) : "");
  digits.erase(digits.find_last_not_of('0') + 1);
  const int n = static_cast<int>(digits.size());
  if (m.smallest_fixed_exponent <= e && e < 0)
    return sign + "." + std::string(-e - 1, '0') + digits;
  if (0 <= e && e < m.digits) {
    if (n <= e + 1)
      return sign + digits + std::string(e + 1 - n, '0');
    return sign + digits.substr(0, e + 1) + "." + digits.substr(e + 1);
  }
  const std::string point = n > 1 ? "." + digits.substr(1) : "";
  std::snprintf(buffer, sizeof buffer, "E%c%02d", e > 0 ? '+' : '-', std::abs(e));
  return sign + digits.substr(0, 1) + point + buffer;
}

// ============================================================================ numformat.py

inline constexpr int SIGNIFICANT_DIGITS = 8;
inline constexpr double INT_LIMIT = 1e8;  // integers below this print exactly

// The exact PRINT text of `x`: sign or space, digits, trailing space (Microsoft
// BASIC's text in --dialect ms).
inline std::string format_number(double x) {
  if (const MachineNumbers* machine = machine_numbers())
    return machine_number_text(x, *machine) + machine->after;
  if (microsoft())
    return format_single(x) + " ";
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

// ============================================================================ stringfns.py

inline constexpr std::size_t MS_MAX_LENGTH = 255;
inline constexpr const char* ILLEGAL_FUNCTION_CALL = "Illegal function call";
inline constexpr const char* OVERFLOW_ERROR = "Overflow";
inline constexpr const char* MS_STRING_TOO_LONG = "String too long";

// `x` rounded to an integer, halves away from zero (exact for every double; an integer:
// no -0).  CINT's rounding too (msnumbers.py).
inline double round_half_away(double x) {
  const double a = std::fabs(x);
  double whole = std::floor(a);
  if (a - whole >= 0.5)
    whole += 1.0;
  return x >= 0.0 || whole == 0.0 ? whole : -whole;
}

// A numeric argument of a string function as a GW-BASIC integer (stringfns.to_int16);
// "Overflow" outside -32768..32767.
inline int argument_int16(double x) {
  if (!(x > -32768.5 && x < 32767.5))
    throw Fault(OVERFLOW_ERROR);
  return static_cast<int>(round_half_away(x));
}

inline std::size_t string_count(double x) {
  const int n = argument_int16(x);
  if (n < 0 || n > static_cast<int>(MS_MAX_LENGTH))
    throw Fault(ILLEGAL_FUNCTION_CALL);
  return static_cast<std::size_t>(n);
}

inline std::size_t string_position(double x) {
  const int n = argument_int16(x);
  if (n < 1 || n > static_cast<int>(MS_MAX_LENGTH))
    throw Fault(ILLEGAL_FUNCTION_CALL);
  return static_cast<std::size_t>(n);
}

// HEX$, OCT$, TAB and SPC's argument: -32768..65535, as an unsigned 16-bit value.
inline long to_word(double x) {
  if (!(x > -32768.5 && x < 65535.5))
    throw Fault(OVERFLOW_ERROR);
  const long n = static_cast<long>(round_half_away(x));
  return n < 0 ? n + 0x10000 : n;
}

// The code points from `first` (0-based), at most `count` of them.
inline std::string text_slice(const std::string& s, std::size_t first, std::size_t count) {
  const std::string tail = s.substr(text_offset(s, first));
  return tail.substr(0, text_offset(tail, count));
}

// Code point `c` (0..255 here) as UTF-8.
inline std::string code_point_text(unsigned long c) {
  std::string out;
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
  return out;
}

// The first code point of non-empty UTF-8 text.
inline unsigned long first_code_point(const std::string& s) {
  const unsigned char lead = static_cast<unsigned char>(s[0]);
  int extra = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
  unsigned long c = extra == 0 ? lead : lead & (0x3F >> extra);
  for (int i = 1; i <= extra && i < static_cast<int>(s.size()); ++i)
    c = (c << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
  return c;
}

// A$ + B$.
inline std::string concat(const std::string& a, const std::string& b) {
  std::string joined = a + b;
  if (text_length(joined) > MS_MAX_LENGTH)
    throw Fault(MS_STRING_TOO_LONG);
  return joined;
}

inline std::string LEFTS(const std::string& s, double n) {
  return text_slice(s, 0, string_count(n));
}

inline std::string RIGHTS(const std::string& s, double n) {
  const std::size_t count = string_count(n);
  const std::size_t length = text_length(s);
  return count >= length ? s : text_slice(s, length - count, count);
}

inline std::string MIDS(const std::string& s, double start) {
  return text_slice(s, string_position(start) - 1, std::string::npos);
}

inline std::string MIDS(const std::string& s, double start, double n) {
  const std::size_t first = string_position(start) - 1;
  return text_slice(s, first, string_count(n));
}

inline double LEN(const std::string& s) {
  return static_cast<double>(text_length(s));
}

inline double ASC(const std::string& s) {
  if (s.empty())
    throw Fault(ILLEGAL_FUNCTION_CALL);
  return static_cast<double>(first_code_point(s));
}

inline std::string CHRS(double x) {
  return code_point_text(string_count(x));
}

inline std::string SPACES(double n) {
  return std::string(string_count(n), ' ');
}

// STRING$(n, code) or STRING$(n, text): n copies of a character (text's first).
inline std::string STRINGS(double n, double code) {
  const std::size_t count = string_count(n);
  const std::string character = code_point_text(string_count(code));
  std::string out;
  for (std::size_t i = 0; i < count; ++i)
    out += character;
  return out;
}

inline std::string STRINGS(double n, const std::string& text) {
  const std::size_t count = string_count(n);
  const std::string character = text_slice(text, 0, 1);
  std::string out;
  for (std::size_t i = 0; i < count; ++i)
    out += character;
  return out;
}

// INSTR([start,] text, pattern): the position of `pattern` from `start`, 0 if absent.
inline double instr_from(std::size_t start, const std::string& text, const std::string& pattern) {
  if (text.empty() || start > text_length(text))
    return 0.0;
  const std::size_t found = text.find(pattern, text_offset(text, start - 1));
  if (found == std::string::npos)
    return 0.0;
  return static_cast<double>(text_length(text.substr(0, found)) + 1);
}

inline double INSTR(const std::string& text, const std::string& pattern) {
  return instr_from(1, text, pattern);
}

inline double INSTR(double start, const std::string& text, const std::string& pattern) {
  return instr_from(string_position(start), text, pattern);
}

// The PRINT text of `x` without the space PRINT puts after it.
inline std::string STRS(double x) {
  if (const MachineNumbers* machine = machine_numbers())
    return machine_number_text(x, *machine);  // Applesoft's STR$(5) is "5"
  const std::string text = format_number(x);
  return text.substr(0, text.size() - 1);
}
inline std::string STRS(Double x) {  // Microsoft BASIC's double: its 16 digits
  if (machine_numbers() != nullptr)
    return STRS(x.value);
  return format_double(x.value);
}
inline std::string STRS(ValNumber x) {
  return x.is_double ? STRS(Double{x.value}) : STRS(x.value);
}

inline std::string radix_text(long value, int base) {
  const char* digits = "0123456789ABCDEF";
  std::string out;
  do {
    out.insert(out.begin(), digits[value % base]);
    value /= base;
  } while (value > 0);
  return out;
}

inline std::string HEXS(double x) {
  return radix_text(to_word(x), 16);
}

inline std::string OCTS(double x) {
  return radix_text(to_word(x), 8);
}

// ASCII letters to upper (lower) case; other characters unchanged.
// QBasic's LTRIM$ and RTRIM$: without the leading (trailing) spaces, only spaces.
inline std::string LTRIMS(const std::string& s) {
  const std::size_t first = s.find_first_not_of(' ');
  return first == std::string::npos ? std::string() : s.substr(first);
}
inline std::string RTRIMS(const std::string& s) {
  const std::size_t last = s.find_last_not_of(' ');
  return last == std::string::npos ? std::string() : s.substr(0, last + 1);
}

inline std::string UCASES(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z')
      c = static_cast<char>(c - 'a' + 'A');
  return s;
}

inline std::string LCASES(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
  return s;
}

inline bool is_val_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n';
}

// How a number in text reads (stringfns.number_value): kNumber with `*value` set (an
// infinity when too large), or kBad (`whole` only: text follows the number), or
// kOverflow (a hexadecimal or octal number past &HFFFF).
enum class NumberText { kNumber, kBad, kOverflow };

inline NumberText radix_value(const std::string& digits, int base, bool whole, double* value) {
  const std::string allowed = base == 16 ? "0123456789ABCDEF" : "01234567";
  std::size_t i = 0;
  while (i < digits.size() && is_val_blank(digits[i]))
    ++i;
  long number = 0;
  bool overflow = false;
  for (; i < digits.size() && allowed.find(digits[i]) != std::string::npos; ++i) {
    number = number * base + static_cast<long>(allowed.find(digits[i]));
    if (number > 0xFFFF) {
      overflow = true;
      number = 0x10000;
    }
  }
  if (whole)
    for (; i < digits.size(); ++i)
      if (!is_val_blank(digits[i]))
        return NumberText::kBad;
  if (overflow)
    return whole ? NumberText::kBad : NumberText::kOverflow;
  *value = static_cast<double>(number > 0x7FFF ? number - 0x10000 : number);
  return NumberText::kNumber;
}

inline NumberText decimal_value(const std::string& word, bool whole, double* value) {
  std::string mantissa;
  long long exponent = 0, scale = 0;
  bool negative = false, exponent_negative = false, sign_seen = false, point = false;
  bool in_exponent = false, exponent_sign_seen = false;
  for (char c : word) {
    if (is_val_blank(c))
      continue;
    if (c == '\x1c' || c == '\x1d' || c == '\x1f') {
      *value = 0.0;
      return NumberText::kNumber;
    }
    if (!sign_seen) {
      sign_seen = true;
      if (c == '+' || c == '-') {
        negative = c == '-';
        continue;
      }
    }
    if (!in_exponent) {
      if (is_digit(c)) {
        if (!mantissa.empty() || c != '0')
          mantissa.push_back(c);
        if (point)
          --scale;
        continue;
      }
      if (c == '.') {
        point = true;  // a second point is ignored, as in GW-BASIC
        continue;
      }
      if (c == 'E' || c == 'D') {
        in_exponent = true;
        continue;
      }
      if (c == '!' || c == '#')
        break;
      if (whole)
        return NumberText::kBad;
      break;
    }
    if (!exponent_sign_seen) {
      exponent_sign_seen = true;
      if (c == '+' || c == '-') {
        exponent_negative = c == '-';
        continue;
      }
    }
    if (is_digit(c)) {
      if (exponent < 1000000000LL)
        exponent = exponent * 10 + (c - '0');
      continue;
    }
    if (whole)
      return NumberText::kBad;
    break;
  }
  if (mantissa.empty()) {
    *value = 0.0;
    return NumberText::kNumber;
  }
  scale += exponent_negative ? -exponent : exponent;
  const std::string text = (negative ? "-" : "") + mantissa + "e" + std::to_string(scale);
  *value = std::strtod(text.c_str(), nullptr);
  return NumberText::kNumber;
}

// The number at the start of `text`, as GW-BASIC's VAL reads it; `whole`: INPUT's rules.
inline NumberText number_text(const std::string& text, bool whole, double* value) {
  std::size_t start = 0;
  while (start < text.size() && (text[start] == ' ' || text[start] == '\n'))
    ++start;
  const std::string word = UCASES(text.substr(start));
  if (!word.empty() && word[0] == '&') {
    if (word.size() > 1 && word[1] == 'H')
      return radix_value(word.substr(2), 16, whole, value);
    const bool letter = word.size() > 1 && word[1] == 'O';
    return radix_value(word.substr(letter ? 2 : 1), 8, whole, value);
  }
  return decimal_value(word, whole, value);
}

// Whether Microsoft BASIC's VAL gives a double for `text`: the type the number at its
// start would have as a constant (a D exponent, a #, more than 7 significant digits
// not counting trailing zeros after the point, unless a !).  (stringfns.val_is_double)
inline bool val_is_double(const std::string& text) {
  std::size_t start = 0;
  while (start < text.size() && (text[start] == ' ' || text[start] == '\n'))
    ++start;
  if (start < text.size() && text[start] == '&')
    return false;
  int significant = 0, trailing_zeros = 0;
  bool point = false, sign_seen = false;
  for (std::size_t i = start; i < text.size(); ++i) {
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
    if (is_val_blank(c))
      continue;
    if (c == '\x1c' || c == '\x1d' || c == '\x1f')  // the number is 0
      return false;
    if (!sign_seen) {
      sign_seen = true;
      if (c == '+' || c == '-')
        continue;
    }
    if (is_digit(c)) {
      if (significant != 0 || c != '0') {
        ++significant;
        trailing_zeros = point && c == '0' ? trailing_zeros + 1 : 0;
      }
    } else if (c == '.') {  // a second point is ignored, as in GW-BASIC
      point = true;
    } else if (c == 'D' || c == '#') {
      return true;
    } else {  // E, !, or the end of the number
      return c != '!' && significant - trailing_zeros > 7;
    }
  }
  return significant - trailing_zeros > 7;
}

inline double sng(double x);
inline double dbl(double x);

// VAL: in Microsoft BASIC a single or a double as the text says (val_is_double), within
// GW-BASIC's range ("Overflow" warns and gives the largest with the sign).
inline ValNumber VAL(const std::string& s) {
  double value = 0.0;
  const NumberText read = number_text(s, false, &value);
  if (read == NumberText::kOverflow || (std::isinf(value) && !microsoft()))
    throw Fault(OVERFLOW_ERROR);
  if (microsoft()) {
    const bool is_double = val_is_double(s);
    return ValNumber{is_double ? dbl(value) : sng(value), is_double};
  }
  return ValNumber{value, false};
}

// MID$(T$, start[, n]) = V$: T$ with the characters from `start` replaced by those of
// V$ (at most n of them, never past T$'s end).
inline std::string mid_assign(const std::string& target, double start, const std::string& value) {
  const std::size_t first = string_position(start) - 1;
  const std::size_t length = text_length(target);
  if (first >= length)
    throw Fault(ILLEGAL_FUNCTION_CALL);
  const std::size_t count = std::min(text_length(value), length - first);
  return text_slice(target, 0, first) + text_slice(value, 0, count) +
         text_slice(target, first + count, std::string::npos);
}

inline std::string mid_assign(const std::string& target, double start, double n,
                              const std::string& value) {
  const std::size_t first = string_position(start) - 1;
  if (first >= text_length(target))
    throw Fault(ILLEGAL_FUNCTION_CALL);
  return mid_assign(target, start, text_slice(value, 0, string_count(n)));
}

// MID$(T$, start[, n]) = T$: GW-BASIC copies character by character from the string it
// is changing, so characters already overwritten are copied again ("12345678" with
// MID$(A$, 4) = A$ makes "12312312").
inline std::string mid_assign_itself(const std::string& target, double start, double n) {
  const std::size_t first = string_position(start) - 1;
  const std::size_t length = text_length(target);
  if (first >= length)
    throw Fault(ILLEGAL_FUNCTION_CALL);
  const std::size_t count = std::min({string_count(n), length, length - first});
  std::string text = target;
  for (std::size_t i = 0; i < count; ++i)
    text = text_slice(text, 0, first + i) + text_slice(text, i, 1) +
           text_slice(text, first + i + 1, std::string::npos);
  return text;
}

inline std::string mid_assign_itself(const std::string& target, double start) {
  return mid_assign_itself(target, start, 255.0);
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

// a + b and a - b; finite operands whose result overflows to +-inf warn.
inline double add(double a, double b) {
  const double r = a + b;
  if (std::isinf(r) && !std::isinf(a) && !std::isinf(b))
    warn(OPERATION_OVERFLOW, "(+)");
  return r;
}
inline double sub(double a, double b) {
  const double r = a - b;
  if (std::isinf(r) && !std::isinf(a) && !std::isinf(b))
    warn(OPERATION_OVERFLOW, "(-)");
  return r;
}

// a / b; division by zero warns and gives the IEEE result (+-inf, NaN for 0/0), a quotient
// of a finite dividend that overflows to +-inf warns.
inline double div(double a, double b) {
  if (b == 0.0) {
    warn(DIVISION_BY_ZERO);
    if (a == 0.0 || std::isnan(a))
      return NAN_VALUE;
    return (a > 0.0) == !std::signbit(b) ? INF : -INF;
  }
  const double r = a / b;
  if (std::isinf(r) && !std::isinf(a))
    warn(OPERATION_OVERFLOW, "(/)");
  return r;
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
  const char* what = microsoft() ? "Illegal function call" : DOMAIN_ERROR;
  return Fault(what, std::string(name) + "(" + format_number_trimmed(x) + ")");
}

// PC-BASIC's SIN, COS and TAN of an argument this large (Microsoft BASIC): 0, 1, 0.
inline constexpr double MICROSOFT_TRIG_LIMIT = 5e16;

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
  if (std::fabs(x) >= MICROSOFT_TRIG_LIMIT && microsoft())
    return 1.0;
  const double r = std::cos(x);
  if (python_value_error(r, x))
    throw domain_error("COS", x);
  return r;
}

inline double EXP(double x) {
  const double r = std::exp(x);
  // Microsoft BASIC: the single the result is rounded to reports an overflow.
  if ((std::isinf(r) && std::isfinite(x)) || (r == 0.0 && x != -INF)) {
    if (!microsoft())
      warn(OPERATION_OVERFLOW, "EXP(" + format_number_trimmed(x) + ")");
  }
  return r;
}

// Extended BASIC's hyperbolic functions: an overflow warns, as EXP's (arith.py).
inline double hyperbolic(const char* name, double r, double x) {
  if (std::isinf(r) && std::isfinite(x))
    warn(OPERATION_OVERFLOW, std::string(name) + "(" + format_number_trimmed(x) + ")");
  return r;
}
inline double SINH(double x) {
  return hyperbolic("SINH", std::sinh(x), x);
}
inline double COSH(double x) {
  return hyperbolic("COSH", std::cosh(x), x);
}
inline double TANH(double x) {
  return std::tanh(x);
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
  if (std::fabs(x) >= MICROSOFT_TRIG_LIMIT && microsoft())
    return 0.0;
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
  if (std::fabs(x) >= MICROSOFT_TRIG_LIMIT && microsoft())
    return 0.0;
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

// ============================================================================ msnumbers.py

// Microsoft BASIC arithmetic (--dialect ms): singles are floats, doubles doubles, both
// within GW-BASIC's range; `%` integers have 16 bits (see msnumbers.py for the table).
inline constexpr const char* OVERFLOW_MS = "Overflow";
inline constexpr const char* DIVISION_BY_ZERO_MS = "Division by zero";
inline constexpr double SINGLE_MAX = (2.0 - 0x1.0p-23) * 0x1.0p126;
inline constexpr double DOUBLE_MAX = (2.0 - 0x1.0p-52) * 0x1.0p126;
inline constexpr double SMALLEST = 0x1.0p-128;
inline constexpr double SINGLE_LIMIT = SINGLE_MAX + 0x1.0p102;  // rounds above SINGLE_MAX
// QuickBASIC's IEEE range (msnumbers.py): the largest float, and where a double rounds
// to a float infinity.
inline constexpr double IEEE_SINGLE_MAX = (2.0 - 0x1.0p-23) * 0x1.0p127;
inline constexpr double IEEE_SINGLE_LIMIT = IEEE_SINGLE_MAX + 0x1.0p103;

// QuickBASIC's value for x beyond GW-BASIC's range (msnumbers._ieee): within IEEE's, or
// the fatal "Overflow".
inline double ieee_in_range(double x, double largest) {
  if (largest == SINGLE_MAX && -IEEE_SINGLE_LIMIT < x && x < IEEE_SINGLE_LIMIT)
    return static_cast<double>(static_cast<float>(x));
  if (largest == DOUBLE_MAX && std::isfinite(x))
    return x;
  throw Fault(OVERFLOW_MS, "(" + format_number_trimmed(x) + ")");
}

inline double out_of_range(double x, double largest) {
  if (std::isnan(x))
    return x;
  if (quickbasic())
    return ieee_in_range(x, largest);
  warn(OVERFLOW_MS);
  return x > 0.0 ? largest : -largest;
}

// An "Overflow" or "Division by zero": a warning in GW-BASIC, fatal in QuickBASIC.
inline void report_ms(const char* what) {
  if (quickbasic())
    throw Fault(what);
  warn(what);
}

// x rounded to an integer as CINT does (msnumbers.round_whole): .5 away from zero in
// GW-BASIC, to even in QuickBASIC (nearbyint in the default rounding mode).
inline double round_whole(double x) {
  if (quickbasic()) {
    const double r = std::nearbyint(x);
    return r == 0.0 ? 0.0 : r;
  }
  return round_half_away(x);
}

// x as a single: rounded to a float, within GW-BASIC's range.
inline double sng(double x) {
  if (-SINGLE_LIMIT < x && x < SINGLE_LIMIT) {
    const double r = static_cast<double>(static_cast<float>(x));
    return -SMALLEST < r && r < SMALLEST ? 0.0 : r;
  }
  return out_of_range(x, SINGLE_MAX);
}

// x as a double, within GW-BASIC's range.
inline double dbl(double x) {
  if (-DOUBLE_MAX <= x && x <= DOUBLE_MAX)
    return -SMALLEST < x && x < SMALLEST ? 0.0 : x;
  return out_of_range(x, DOUBLE_MAX);
}

// Whether x as a single (`single` false: a double) is within GW-BASIC's range, so that
// sng(x) (dbl(x)) warns no "Overflow" (msnumbers.fits): a kernel's block sum combines
// into its variable only where it fits, else the host runs the block's iterations.
inline bool fits(double x, bool single) {
  if (single)
    return -SINGLE_LIMIT < x && x < SINGLE_LIMIT;
  return -DOUBLE_MAX <= x && x <= DOUBLE_MAX;
}

// (round_half_away is stringfns.py's, above.)

// CINT(x), and the value a `%` variable stores: fatal "Overflow" outside 16 bits.
// Applesoft's and Commodore BASIC's integer of x: INT(x) (`A% = -7.9` is -8).
inline double floor_int(double x) {
  if (-32768.0 <= x && x < 32768.0)
    return std::floor(x);
  throw Fault(OVERFLOW_MS, "(" + format_number_trimmed(x) + ")");
}

inline double cint(double x) {
  const MachineNumbers* machine = machine_numbers();
  if (machine != nullptr && machine->integers_floor)
    return floor_int(x);
  if (std::fabs(x) < 32768.5) {
    const double r = round_whole(x);
    if (-32768.0 <= r && r <= 32767.0)
      return r;
  }
  throw Fault(OVERFLOW_MS, "(" + format_number_trimmed(x) + ")");
}

// TAB's argument: a signed or unsigned 16-bit integer.
inline int cint_unsigned(double x) {
  if (-32768.5 < x && x < 65535.5)
    return static_cast<int>(round_half_away(x));
  throw Fault(OVERFLOW_MS, "(" + format_number_trimmed(x) + ")");
}

inline double fix(double x) {
  if (!std::isfinite(x))
    return x;
  const double r = std::trunc(x);
  return r == 0.0 ? 0.0 : r;  // an integer: no -0 (Python's int)
}

inline double divided_by_zero(double a, double largest) {
  report_ms(DIVISION_BY_ZERO_MS);
  return a < 0.0 ? -largest : largest;
}

inline double single_div(double a, double b) {
  return b == 0.0 ? divided_by_zero(a, SINGLE_MAX) : sng(a / b);
}

inline double double_div(double a, double b) {
  return b == 0.0 ? divided_by_zero(a, DOUBLE_MAX) : dbl(a / b);
}

inline long int_of(double x) {
  return static_cast<long>(cint(x));
}

// a \ b: the operands rounded to integers, the quotient truncated toward zero.
inline double int_div(double a, double b) {
  const long left = int_of(a), right = int_of(b);
  if (right == 0)
    return divided_by_zero(static_cast<double>(left), SINGLE_MAX);
  const long quotient = left / right;  // C++ truncates toward zero
  if (quotient > 32767)
    throw Fault(OVERFLOW_MS, "(" + std::to_string(left) + " \\ " + std::to_string(right) + ")");
  return static_cast<double>(quotient);
}

// a MOD b: the operands rounded to integers; the remainder has the sign of a.
inline double int_mod(double a, double b) {
  const long left = int_of(a), right = int_of(b);
  if (right == 0)
    return divided_by_zero(static_cast<double>(left), SINGLE_MAX);
  return static_cast<double>(left % right);  // C++ gives the sign of the dividend
}

// The value a `%` variable stores for x (an int32 holding a 16-bit integer).
inline std::int32_t to_int16(double x) {
  return static_cast<std::int32_t>(cint(x));
}

// The 16-bit two's complement integer of the low bits of `bits`.
inline double from_bits16(long bits) {
  return static_cast<double>(static_cast<std::int16_t>(static_cast<std::uint16_t>(bits & 0xFFFF)));
}

// QuickBASIC's LONG (`&`, msnumbers.py): CLNG(x), and the value a `&` variable stores,
// is x rounded half away from zero, fatal "Overflow" outside 32 bits.
inline double clng(double x) {
  if (std::fabs(x) < 2147483648.5) {
    const double r = round_whole(x);
    if (-2147483648.0 <= r && r <= 2147483647.0)
      return r;
  }
  throw Fault(OVERFLOW_MS, "(" + format_number_trimmed(x) + ")");
}

// The value a `&` variable (an int32) stores for x.
inline std::int32_t to_int32_long(double x) {
  return static_cast<std::int32_t>(clng(x));
}

// QuickBASIC's INTEGER and LONG results of + - * (exact in a double): "Overflow" beyond.
inline double int_result(double x) {
  if (-32768.0 <= x && x <= 32767.0)
    return x;
  throw Fault(OVERFLOW_MS, "(" + format_number_trimmed(x) + ")");
}
inline double long_result(double x) {
  if (-2147483648.0 <= x && x <= 2147483647.0)
    return x;
  throw Fault(OVERFLOW_MS, "(" + format_number_trimmed(x) + ")");
}

inline long long long_of(double x) {
  return static_cast<long long>(clng(x));
}

// QuickBASIC's a \ b and a MOD b of LONGs; "Division by zero" is fatal there.
inline double long_div(double a, double b) {
  const long long left = long_of(a), right = long_of(b);
  if (right == 0)
    throw Fault(DIVISION_BY_ZERO_MS, "(" + std::to_string(left) + " \\ 0)");
  return long_result(static_cast<double>(left / right));  // C++ truncates toward zero
}
inline double long_mod(double a, double b) {
  const long long left = long_of(a), right = long_of(b);
  if (right == 0)
    throw Fault(DIVISION_BY_ZERO_MS, "(" + std::to_string(left) + " MOD 0)");
  return static_cast<double>(left % right);  // C++ gives the sign of the dividend
}

// The 32-bit two's complement integer of the low bits of `bits`.
inline double from_bits32(long long bits) {
  return static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(bits & 0xFFFFFFFF)));
}
// AND, OR, XOR, EQV, IMP and NOT on two's complement words, each written once for both
// widths: GW-BASIC's 16-bit integers (`bit_and`..., operands rounded as CINT) and
// QuickBASIC's LONG, 32 bits (`long_and`..., rounded as CLNG), as msnumbers.py does.
template <int Bits>
struct Word {
  static long long of(double x) { return Bits == 16 ? int_of(x) : long_of(x); }
  static double from(long long bits) { return Bits == 16 ? from_bits16(bits) : from_bits32(bits); }
};
template <int Bits, class Op>
inline double bitwise(double a, double b, Op op) {
  const long long x = Word<Bits>::of(a);  // first: its "Overflow" is the one reported
  const long long y = Word<Bits>::of(b);
  return Word<Bits>::from(op(x, y));
}
constexpr auto AND_BITS = [](long long x, long long y) { return x & y; };
constexpr auto OR_BITS = [](long long x, long long y) { return x | y; };
constexpr auto XOR_BITS = [](long long x, long long y) { return x ^ y; };
constexpr auto EQV_BITS = [](long long x, long long y) { return ~(x ^ y); };
constexpr auto IMP_BITS = [](long long x, long long y) { return ~x | y; };
// The runtime's names of each (semantics.BITWISE; `_band` in the interpreter).
inline double bit_and(double a, double b) { return bitwise<16>(a, b, AND_BITS); }
inline double bit_or(double a, double b) { return bitwise<16>(a, b, OR_BITS); }
inline double bit_xor(double a, double b) { return bitwise<16>(a, b, XOR_BITS); }
inline double bit_eqv(double a, double b) { return bitwise<16>(a, b, EQV_BITS); }
inline double bit_imp(double a, double b) { return bitwise<16>(a, b, IMP_BITS); }
inline double long_and(double a, double b) { return bitwise<32>(a, b, AND_BITS); }
inline double long_or(double a, double b) { return bitwise<32>(a, b, OR_BITS); }
inline double long_xor(double a, double b) { return bitwise<32>(a, b, XOR_BITS); }
inline double long_eqv(double a, double b) { return bitwise<32>(a, b, EQV_BITS); }
inline double long_imp(double a, double b) { return bitwise<32>(a, b, IMP_BITS); }
inline double bit_not(double a) {
  return Word<16>::from(~Word<16>::of(a));
}
inline double long_not(double a) {
  return Word<32>::from(~Word<32>::of(a));
}

// A function's double result as a single, converted as PC-BASIC converts it (see
// msnumbers.single_result: 23 bits below 2^23, truncated).
inline double single_result(double x) {
  if (x == 0.0 || std::isnan(x))
    return x;
  if (quickbasic())  // the 8087's result rounded to the nearest single
    return sng(x);
  const double a = std::fabs(x);
  if (a < SMALLEST)
    return 0.0;
  if (a >= SINGLE_LIMIT) {  // (an infinity too)
    report_ms(OVERFLOW_MS);
    return SINGLE_MAX;
  }
  long long k = static_cast<long long>(std::log(a) / std::log(2.0) - 23);
  long long m = static_cast<long long>(a * std::pow(0.5, static_cast<double>(k)));
  while (m <= 0x7FFFFF) {
    --k;
    m <<= 1;
  }
  while (m > 0xFFFFFF) {
    ++k;
    m >>= 1;
  }
  const double r = std::ldexp(static_cast<double>(m), static_cast<int>(k));
  if (r > SINGLE_MAX) {
    report_ms(OVERFLOW_MS);
    return SINGLE_MAX;
  }
  if (r < SMALLEST)
    return 0.0;
  return x > 0.0 ? r : -r;
}

inline double ms_power(double a, double b, double largest, double (*rounded)(double)) {
  if (a == 0.0 && b < 0.0) {
    report_ms(DIVISION_BY_ZERO_MS);
    return largest;
  }
  if (a < 0.0 && b != std::floor(b))
    throw Fault(ILLEGAL_FUNCTION_CALL,
                "(" + format_number_trimmed(a) + " ^ " + format_number_trimmed(b) + ")");
  const double r = std::pow(a, b);
  if (largest == DOUBLE_MAX && std::fabs(r) > DOUBLE_MAX) {
    report_ms(OVERFLOW_MS);
    return largest;
  }
  return rounded(r);
}

// a ^ b for an exponent that is not an integer expression: a single.
inline double single_power(double a, double b) {
  return ms_power(a, b, SINGLE_MAX, single_result);
}

// a ^ b computed in double (--precision f64).
inline double double_power(double a, double b) {
  return ms_power(a, b, DOUBLE_MAX, dbl);
}

struct ProductOverflow {
  double value;
};

inline double ms_product(double a, double b) {
  const double r = a * b;
  if (std::fabs(r) >= SINGLE_LIMIT && !quickbasic())  // (QuickBASIC: sng's IEEE range)
    throw ProductOverflow{r > 0.0 ? SINGLE_MAX : -SINGLE_MAX};
  return sng(r);
}

inline double power_by_squaring(double a, long long n) {
  if (n == 0)
    return 1.0;
  if (n == 1)
    return a;
  const double half = power_by_squaring(a, n / 2);
  const double square = ms_product(half, half);
  return n % 2 != 0 ? ms_product(square, a) : square;
}

// a ^ n for an integer expression n: repeated squaring in singles (GW-BASIC's way).
inline double single_power_int(double a, double n) {
  const auto exponent = static_cast<long long>(n);
  double power = 0.0;
  try {
    power = power_by_squaring(sng(a), exponent < 0 ? -exponent : exponent);
  } catch (const ProductOverflow& overflow) {
    report_ms(OVERFLOW_MS);
    return overflow.value;
  }
  return exponent < 0 ? single_div(1.0, power) : power;
}

inline constexpr const char* TIMER_VARIABLE = "BASIC2TILE_TIMER";

inline double FIX(double x) {
  return fix(x);
}
inline double CINT(double x) {
  return cint(x);
}
inline double CLNG(double x) {
  return clng(x);
}
inline double CSNG(double x) {
  return sng(x);
}
inline double CDBL(double x) {
  return x;
}

// Seconds since midnight in twentieths of a second (a single); $BASIC2TILE_TIMER if set.
inline double TIMER() {
  const char* raw = std::getenv(TIMER_VARIABLE);
  std::string text = raw != nullptr ? raw : "";
  const std::size_t first = text.find_first_not_of(" \t\n\r\f\v");
  if (first != std::string::npos) {
    text = text.substr(first, text.find_last_not_of(" \t\n\r\f\v") - first + 1);
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() + text.size())
      return sng(value);
    throw Fault(std::string(TIMER_VARIABLE) + " is not a number", "(" + text + ")");
  }
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
  const double fraction =
      static_cast<double>(
          std::chrono::duration_cast<std::chrono::microseconds>(since_epoch).count() % 1000000) /
      1e6;
  const double seconds = local.tm_hour * 3600 + local.tm_min * 60 + local.tm_sec + fraction;
  return sng(std::floor(seconds * 20.0) / 20.0);
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

// GW-BASIC's generator (--dialect ms; rnd.py): a 24-bit linear congruential generator.
inline constexpr std::uint32_t GW_INITIAL_SEED = 0x4FC752;
inline constexpr std::uint32_t GW_PERIOD = 1u << 24;
inline constexpr std::int64_t GW_SEED_STEP = 0x43FD00;

// The generators' state: SplitMix64 with the last number drawn (extended and Dartmouth
// BASIC), and GW-BASIC's seed.
struct RndState {
  SplitMix64 splitmix;
  double last = 0.0;
  std::uint32_t gw_seed = GW_INITIAL_SEED;
};

inline RndState& rnd_state() {
  static RndState state;
  return state;
}

inline SplitMix64& generator() {
  return rnd_state().splitmix;
}

inline void gw_step() {
  std::uint32_t& seed = rnd_state().gw_seed;
  seed = static_cast<std::uint32_t>((static_cast<std::uint64_t>(seed) * 214013u + 2531011u) %
                                    GW_PERIOD);
}

inline double gw_value() {
  return static_cast<double>(rnd_state().gw_seed) / GW_PERIOD;
}

inline std::uint64_t double_bits(double x) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

// The next pseudo-random number in [0, 1).
inline double RND() {
  if (microsoft()) {
    gw_step();
    return gw_value();
  }
  RndState& state = rnd_state();
  state.last = state.splitmix.random();
  return state.last;
}

// RND(x): Microsoft's argument (x > 0 next, 0 the last again, x < 0 restarts from x);
// Dartmouth BASIC ignores it.
inline double RND(double x) {
  RndState& state = rnd_state();
  if (microsoft()) {
    const double single = static_cast<double>(static_cast<float>(x));
    if (single < 0.0) {
      int exponent = 0;
      state.gw_seed = static_cast<std::uint32_t>(std::ldexp(std::frexp(-single, &exponent), 24));
    }
    if (single != 0.0)
      gw_step();
    return gw_value();
  }
  if (current_dialect() != Dialect::dartmouth) {
    if (x == 0.0)
      return state.last;
    if (x < 0.0)
      state.splitmix.state = double_bits(x);
  }
  return RND();
}

// The bytes of x in GW-BASIC's memory (rnd.mbf_bytes): "int", "single" or "double".
inline std::vector<unsigned char> mbf_bytes(double x, const std::string& kind) {
  std::vector<unsigned char> out;
  if (kind == "int" && -32768.0 <= x && x <= 32767.0) {
    const auto bits = static_cast<std::uint16_t>(static_cast<std::int16_t>(x));
    return {static_cast<unsigned char>(bits & 0xFF), static_cast<unsigned char>(bits >> 8)};
  }
  const int size = kind == "double" ? 7 : 3;  // (an "int" beyond 16 bits: a single)
  if (size == 3)
    x = static_cast<double>(static_cast<float>(x));
  if (x == 0.0)
    return std::vector<unsigned char>(size + 1, 0);
  int exponent = 0;
  const double fraction = std::frexp(std::fabs(x), &exponent);
  std::uint64_t mantissa = size == 3 ? static_cast<std::uint64_t>(std::ldexp(fraction, 24))
                                     : static_cast<std::uint64_t>(std::ldexp(fraction, 53)) << 3;
  const std::uint64_t sign_bit = std::uint64_t(1) << (8 * size - 1);
  mantissa &= sign_bit - 1;
  if (x < 0.0)
    mantissa |= sign_bit;
  for (int i = 0; i < size; ++i)
    out.push_back(static_cast<unsigned char>((mantissa >> (8 * i)) & 0xFF));
  out.push_back(static_cast<unsigned char>(exponent + 128));
  return out;
}

inline void RANDOMIZE() {
  generator().state = randomize_seed();
}

// RANDOMIZE seed; `kind` is the BASIC type of the seed ("int", "single" or "double"):
// GW-BASIC mixes in the bytes of its value (rnd.py), the other dialects restart
// SplitMix64 from the bits of the double.
inline void RANDOMIZE(double seed, const std::string& kind) {
  if (!microsoft()) {
    generator().state = double_bits(seed);
    return;
  }
  const std::vector<unsigned char> raw = mbf_bytes(seed, kind);
  const std::size_t n = raw.size();
  unsigned low = raw[n - 2], high = raw[n - 1];
  if (n >= 4) {
    low ^= raw[n - 4];
    high ^= raw[n - 3];
  }
  const auto mixed = static_cast<std::int16_t>(static_cast<std::uint16_t>(low | (high << 8)));
  std::uint32_t& state = rnd_state().gw_seed;
  state &= 0xFF;
  gw_step();
  const std::int64_t next = (static_cast<std::int64_t>(state) + mixed * GW_SEED_STEP) % GW_PERIOD;
  state = static_cast<std::uint32_t>(next < 0 ? next + GW_PERIOD : next);
}

// Restart the sequences, as at program start.
inline void reset_rnd(std::uint64_t state = INITIAL_STATE) {
  rnd_state() = RndState{SplitMix64(state), 0.0, GW_INITIAL_SEED};
}

// Run the program in dialect `d` (the generated main() calls it first).
inline void use_dialect(Dialect d) {
  dialect_slot() = d;
  reset_rnd();
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

// ============================================================================ using.py

// (ILLEGAL_FUNCTION_CALL is msnumbers.py's, above.)
inline constexpr const char* WRONG_TYPE = "Type mismatch";
inline constexpr int USING_MAX_DIGITS = 24;  // digit positions of one numeric field

// How PRINT USING turns numbers into decimal digits: `digits` significant digits, the
// letter of the exponent, and where a field's fewer digits come from (`binary`): the
// binary value converted again as GW-BASIC does (singles), or the `digits` digits rounded
// half away from zero (doubles: ours have 53 of GW-BASIC's 56 bits; see using.py).
struct UsingPrecision {
  int digits;
  char letter;
  bool binary;
};
inline constexpr UsingPrecision SINGLE{7, 'E', true};    // Microsoft single precision (f32)
inline constexpr UsingPrecision DOUBLE{16, 'D', false};  // Microsoft double precision
inline constexpr UsingPrecision REAL{15, 'E', false};    // the other dialects' IEEE doubles

// A piece of a format: literal text, a string field or a numeric field.
struct UsingPiece {
  enum class Kind { LITERAL, STRING, NUMBER } kind = Kind::LITERAL;
  std::string text;      // LITERAL
  char string_kind = 0;  // STRING: '!', '&' or '\\'
  int width = 0;         // STRING ('\\' fields) and NUMBER: characters of the field
  int before = 0;        // NUMBER: digit positions before the point
  int decimals = 0;      // NUMBER: digit positions after the point
  bool point = false;
  bool comma = false;
  bool dollar = false;
  bool stars = false;
  bool leading_sign = false;
  char trailing = 0;  // '+', '-' or 0
  int exponent = 0;   // digits of the exponent (2 or 3), 0: none
};

// The byte offset after the code point that starts at `i`.
inline std::size_t next_code_point(const std::string& text, std::size_t i) {
  ++i;
  while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80)
    ++i;
  return i;
}

inline bool using_string_field(const std::string& fmt, std::size_t* i, UsingPiece* piece) {
  const char c = fmt[*i];
  if (c == '!' || c == '&') {
    piece->kind = UsingPiece::Kind::STRING;
    piece->string_kind = c;
    piece->width = 1;
    ++*i;
    return true;
  }
  if (c != '\\')
    return false;
  std::size_t j = *i + 1;
  while (j < fmt.size() && fmt[j] == ' ')
    ++j;
  if (j >= fmt.size() || fmt[j] != '\\')
    return false;
  piece->kind = UsingPiece::Kind::STRING;
  piece->string_kind = c;
  piece->width = static_cast<int>(j - *i + 1);
  *i = j + 1;
  return true;
}

inline bool using_number_field(const std::string& fmt, std::size_t* position, UsingPiece* piece) {
  const std::size_t start = *position;
  auto at = [&fmt](std::size_t k, const char* text) {
    return fmt.compare(k, std::strlen(text), text) == 0;
  };
  auto next_is = [&fmt](std::size_t k, char c) { return k < fmt.size() && fmt[k] == c; };
  UsingPiece f;
  f.kind = UsingPiece::Kind::NUMBER;
  std::size_t i = start;
  f.leading_sign = next_is(i, '+');
  if (f.leading_sign)
    ++i;
  if (at(i, "**")) {
    f.stars = true;
    f.before = 2;
    i += 2;
    if (next_is(i, '$')) {
      f.dollar = true;
      ++i;
    }
  } else if (at(i, "$$")) {
    f.dollar = true;
    f.before = 1;
    i += 2;
  } else if (next_is(i, '$') || next_is(i, '*')) {
    return false;
  }
  if (next_is(i, '#') || next_is(i, '.')) {  // digit positions; commas count before the point
    for (; i < fmt.size(); ++i) {
      const char c = fmt[i];
      if (c == '#') {
        ++(f.point ? f.decimals : f.before);
      } else if (c == '.' && !f.point) {
        f.point = true;
      } else if (c == ',' && !f.point) {
        ++f.before;
        f.comma = true;
      } else {
        break;
      }
    }
  }
  if (f.before + f.decimals == 0)
    return false;
  if (at(i, "^^^^")) {
    f.exponent = at(i, "^^^^^") ? 3 : 2;
    i += f.exponent + 2;
  }
  if (!f.leading_sign && (next_is(i, '+') || next_is(i, '-')))
    f.trailing = fmt[i++];
  f.width = static_cast<int>(i - start);
  *piece = f;
  *position = i;
  return true;
}

// The fields and literal texts of a format, in order (adjacent literals joined).
inline std::vector<UsingPiece> parse_format(const std::string& fmt) {
  std::vector<UsingPiece> pieces;
  std::string literal;
  auto flush = [&]() {
    if (!literal.empty()) {
      UsingPiece piece;
      piece.text = literal;
      pieces.push_back(piece);
      literal.clear();
    }
  };
  std::size_t i = 0;
  while (i < fmt.size()) {
    if (fmt[i] == '_') {  // the next character as it is (a final "_" prints itself)
      if (i + 1 < fmt.size()) {
        const std::size_t end = next_code_point(fmt, i + 1);
        literal += fmt.substr(i + 1, end - i - 1);
        i = end;
      } else {
        literal += '_';
        i += 1;
      }
      continue;
    }
    UsingPiece field;
    if (using_string_field(fmt, &i, &field) || using_number_field(fmt, &i, &field)) {
      flush();
      pieces.push_back(field);
      continue;
    }
    const std::size_t end = next_code_point(fmt, i);
    literal += fmt.substr(i, end - i);
    i = end;
  }
  flush();
  return pieces;
}

inline std::string format_string_field(const UsingPiece& field, const std::string& value) {
  if (field.string_kind == '&')
    return value;
  const std::size_t width = static_cast<std::size_t>(field.width);
  std::string text = value.substr(0, text_offset(value, width));
  return text + std::string(width - text_length(text), ' ');
}

// The first `keep` (>= 1) of `digits`, rounded half away from zero on the next one;
// *carried is set when the rounding carried out of them ("99" -> "100").
inline std::string round_half_up(const std::string& digits, int keep, bool* carried) {
  const std::size_t n = static_cast<std::size_t>(keep);
  std::string head = digits.substr(0, n);
  head.resize(n, '0');
  *carried = false;
  if (n >= digits.size() || digits[n] < '5')
    return head;
  std::size_t k = n;
  while (k > 0 && head[k - 1] == '9')
    head[--k] = '0';
  if (k == 0) {
    *carried = true;
    return "1" + head;
  }
  ++head[k - 1];
  return head;
}

// x > 0 as `digits` decimal digits: N with x ~ N * 10^*e10, N of `digits` digits or,
// where the rounding carried, 10^digits with *e10 a decade low; for no digits (0 or
// fewer) N is 0 or 1 and *e10 the number of times x is divided by ten to fall below 1.
// (using.py's decimal_digits; N as its decimal text.)
inline std::string using_decimal_digits(double x, int digits, UsingPrecision precision,
                                        int* e10) {
  if (precision.binary) {
    const wide number = ms_single_format().decimal_digits(x, digits, e10);
    return std::to_string(static_cast<unsigned long long>(number));
  }
  std::string full;
  int power = 0;  // x ~ 0.FULL * 10^power
  if (precision.digits == DOUBLE.digits && precision.letter == DOUBLE.letter) {
    int e = 0;
    full = std::to_string(static_cast<unsigned long long>(ms_double_format().decimal(x, &e)));
    power = e + precision.digits;
  } else {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*e", precision.digits - 1, x);
    const std::string text(buffer);
    const std::size_t e = text.find('e');
    full = text.substr(0, 1) + text.substr(2, e - 2);
    power = std::atoi(text.c_str() + e + 1) + 1;
  }
  if (digits <= 0) {
    *e10 = std::max(power, 0);
    return power >= 0 && full[0] >= '5' ? "1" : "0";
  }
  bool carried = false;
  std::string kept = round_half_up(full, digits, &carried);
  *e10 = power - digits;
  return kept;
}

inline std::string group_thousands(const std::string& integer) {
  std::string out;
  const std::size_t head = integer.size() % 3 == 0 ? 3 : integer.size() % 3;
  for (std::size_t k = 0; k < integer.size(); ++k) {
    if (k >= head && (k - head) % 3 == 0)
      out += ',';
    out += integer[k];
  }
  return out;
}

// GW-BASIC's fixed-point text of x > 0: converted with all the digits of its precision,
// and again with fewer where the field shows fewer decimals (the second conversion rounds).
inline std::string using_fixed(double x, int decimals, bool point, bool comma,
                               UsingPrecision precision) {
  if (x == 0)
    return point ? "." + std::string(decimals, '0') : "0";
  int e10 = 0;
  std::string digits = using_decimal_digits(x, precision.digits, precision, &e10);
  if (-e10 > decimals) {  // more digits after the point than the field shows
    const int work = precision.digits + e10 + decimals;
    if (work > 0) {
      digits = using_decimal_digits(x, work, precision, &e10);
    } else {  // GW-BASIC (PC-BASIC) prints 0 here even for .05 with #.#: rounded instead
      const std::size_t all = static_cast<std::size_t>(precision.digits);
      const bool first_rounds_up =
          work == 0 && (digits.size() > all || (digits.size() == all && digits[0] >= '5'));
      digits = first_rounds_up ? "1" : "0";
      e10 = -decimals;
    }
  }
  const int before = static_cast<int>(digits.size()) + e10;  // digits before the point
  if (before + decimals > static_cast<int>(digits.size()))
    digits.resize(before + decimals, '0');
  if (before <= 0)
    return "." + std::string(-before, '0') + digits;
  std::string integer = digits.substr(0, before);
  const std::string fraction = digits.substr(before);
  if (comma)
    integer = group_thousands(integer);
  return integer + (point ? "." + fraction : "");
}

// GW-BASIC's E-format text of x >= 0, converted with as many digits as the field shows
// (at most the precision's).
inline std::string using_scientific(double x, int before, int decimals, const UsingPiece& field,
                                    UsingPrecision precision) {
  const char letter = precision.letter;
  const std::string zeros(field.exponent, '0');
  if (x == 0) {
    if (field.point)
      return "." + std::string(decimals, '0') + letter + "+" + zeros;
    return (letter == 'E' ? "E+" : "0D+") + zeros;  // GW-BASIC's own output
  }
  const int shown_digits = before + decimals;
  const int work = std::min(precision.digits, shown_digits);
  int e10 = 0;
  std::string mantissa = using_decimal_digits(x, work, precision, &e10);
  if (work <= 0) {
    mantissa.clear();
  } else if (static_cast<int>(mantissa.size()) > work) {  // carried: one decade more
    mantissa.resize(work);                                // (PC-BASIC keeps e10)
    ++e10;
  } else {
    mantissa.insert(0, work - mantissa.size(), '0');
  }
  mantissa.resize(shown_digits, '0');
  std::string text = mantissa.substr(0, before);
  if (static_cast<int>(mantissa.size()) > before)
    text += "." + mantissa.substr(before);
  else if (field.point)
    text += ".";
  const int exponent = e10 + work - before;
  std::string number = std::to_string(exponent < 0 ? -exponent : exponent);
  if (static_cast<int>(number.size()) < field.exponent)
    number.insert(0, field.exponent - number.size(), '0');
  return text + letter + (exponent < 0 ? "-" : "+") + number;
}

inline std::string format_number_field(const UsingPiece& field, double x,
                                       UsingPrecision precision = REAL) {
  int before = field.before;
  const int decimals = field.decimals;
  if (before + decimals > USING_MAX_DIGITS)
    throw Fault(ILLEGAL_FUNCTION_CALL, "(more than 24 digits in a PRINT USING field)");
  const bool negative = x < 0;
  const std::string sign = negative ? "-" : "+";
  std::string prefix, suffix;
  if (field.leading_sign) {
    prefix = sign;
  } else if (field.trailing == '+') {
    suffix = sign;
  } else if (field.trailing == '-') {
    suffix = negative ? "-" : " ";
  } else {
    prefix = negative ? "-" : "";
    if (!field.dollar)
      before = std::max(before - 1, 0);  // a minus sign may take the first position
  }
  if (precision.binary)  // a single has 7 digits whatever it was computed in
    x = static_cast<double>(static_cast<float>(x));
  if (std::isnan(x) || std::isinf(x))
    return std::string("%") + (negative ? "-" : "") + (std::isnan(x) ? "NAN" : "INF");
  const double magnitude = std::fabs(x);
  const std::string body =
      field.exponent ? using_scientific(magnitude, before, decimals, field, precision)
                     : using_fixed(magnitude, decimals, field.point, field.comma, precision);
  std::string text = prefix + (field.dollar ? "$" : "") + body + suffix;
  const std::size_t width = static_cast<std::size_t>(field.width);
  if (text.size() < width) {  // room for a 0 before the point
    for (const char* start : {".", "+.", "-."}) {
      const std::size_t n = std::strlen(start);
      if (text.compare(0, n, start) == 0) {
        text.insert(n - 1, "0");
        break;
      }
    }
  }
  if (text.size() > width)
    return "%" + text;
  return std::string(width - text.size(), field.stars ? '*' : ' ') + text;
}

// One PRINT USING statement on a channel (the Console, or a file open for output):
// `item` formats each value into the next field as it is evaluated, `end` prints the
// literal text that follows and ends the line.  A chain, as PRINT's:
//   con.print_using("##.##").item(x).item(y).end();
template <class Channel>
class UsingWriter {
 public:
  UsingWriter(Channel& channel, const std::string& fmt, UsingPrecision precision)
      : channel_(channel), pieces_(parse_format(fmt)), precision_(precision) {
    bool has_field = false;
    std::string text;
    for (const UsingPiece& piece : pieces_) {
      has_field = has_field || piece.kind != UsingPiece::Kind::LITERAL;
      text += piece.text;
    }
    if (!has_field) {
      channel_.write_string(text);
      throw Fault(ILLEGAL_FUNCTION_CALL, "(a PRINT USING format without a field)");
    }
  }

  UsingWriter& item(double x) {
    return number(x, precision_);
  }
  // A double of Microsoft BASIC (generated code marks it): its 16 digits.
  UsingWriter& item(Double x) {
    return number(x.value, DOUBLE);
  }
  UsingWriter& item(ValNumber x) {
    return x.is_double ? item(Double{x.value}) : item(x.value);
  }
  UsingWriter& item(const std::string& text) {
    const UsingPiece& field = next_field();
    if (field.kind == UsingPiece::Kind::NUMBER)
      throw Fault(WRONG_TYPE, "(a string for a PRINT USING number field)");
    channel_.write_string(format_string_field(field, text));
    return *this;
  }

  UsingWriter& item(const char* text) {
    return item(std::string(text));
  }

  // After the last item: the literal text up to the next field or the end of the format,
  // then the newline (`newline` false when the statement ends with ; or ,).
  void end(bool newline = true) {
    for (; next_ < pieces_.size() && pieces_[next_].kind == UsingPiece::Kind::LITERAL; ++next_)
      channel_.write_string(pieces_[next_].text);
    if (newline)
      channel_.newline();
  }

 private:
  UsingWriter& number(double x, UsingPrecision precision) {
    const UsingPiece& field = next_field();
    if (field.kind == UsingPiece::Kind::STRING)
      throw Fault(WRONG_TYPE, "(a number for a PRINT USING string field)");
    channel_.write_string(format_number_field(field, x, precision));
    return *this;
  }

  // Print the literal text up to the next field (from the start of the format again
  // when it runs out) and return that field.
  const UsingPiece& next_field() {
    for (;;) {
      if (next_ == pieces_.size())
        next_ = 0;
      const UsingPiece& piece = pieces_[next_++];
      if (piece.kind != UsingPiece::Kind::LITERAL)
        return piece;
      channel_.write_string(piece.text);
    }
  }

  Channel& channel_;
  std::vector<UsingPiece> pieces_;
  UsingPrecision precision_;
  std::size_t next_ = 0;
};

// ============================================================================ ms_inputs.py

inline constexpr const char* REDO = "?Redo from start";

inline bool is_ms_blank(char c) {
  return c == ' ' || c == '\0' || c == '\n';
}

// One item of a Microsoft INPUT reply from `*pos`, and the character that ended it
// ("," or "" at the end of the reply; anything else when something unexpected follows).
inline std::string ms_reply_item(const std::string& reply, std::size_t* pos, Kind kind,
                                 std::string* end) {
  const std::size_t size = reply.size();
  auto read = [&]() -> std::string {
    if (*pos >= size)
      return "";
    return std::string(1, reply[(*pos)++]);
  };
  while (*pos < size && is_ms_blank(reply[*pos]))
    ++*pos;
  std::string c = read();
  const bool quoted = c == "\"" && kind == STRING;
  if (quoted)
    c = read();
  std::string word, blanks;
  while (!c.empty() && !((c == "," || c == "\r") && !quoted)) {
    if (quoted && c == "\"")
      break;
    if (c[0] == '\0') {
      // NUL is dropped, even inside quotes
    } else if (is_ms_blank(c[0]) && !quoted) {
      if (kind == STRING)
        blanks += c;
    } else {
      word += blanks + c;
      blanks.clear();
    }
    if (text_length(word) + text_length(blanks) >= MS_MAX_LENGTH &&
        (*pos >= size || (static_cast<unsigned char>(reply[*pos]) & 0xC0) != 0x80))
      break;
    c = read();
  }
  if ((!c.empty() && is_ms_blank(c[0])) || (quoted && c == "\"")) {
    while (*pos < size && reply[*pos] == ' ')
      ++*pos;
    if (*pos < size && (reply[*pos] == ',' || reply[*pos] == '\r'))
      c = read();
  }
  *end = c;
  return word;
}

// The values of a reply (without its newline); ReplyRejected{REDO} if it does not fit.
inline std::vector<Value> parse_ms_reply(const std::string& reply, const std::vector<Kind>& kinds) {
  std::size_t pos = 0;
  std::vector<Value> values;
  std::vector<bool> singles;  // a number typed as a single constant (val_is_double)
  std::vector<std::string> ends;
  for (Kind kind : kinds) {
    std::string end;
    Value value;
    const std::string word = ms_reply_item(reply, &pos, kind, &end);
    ends.push_back(end);
    if (kind == STRING) {
      value.text = word;
    } else if (number_text(word, true, &value.number) != NumberText::kNumber) {
      throw ReplyRejected{REDO, ""};
    }
    singles.push_back(kind == NUMBER && !val_is_double(word));
    values.push_back(std::move(value));
  }
  if (!ends.back().empty())
    throw ReplyRejected{REDO, ""};
  for (std::size_t i = 0; i + 1 < ends.size(); ++i)
    if (ends[i].empty())
      throw ReplyRejected{REDO, ""};
  for (std::size_t i = 0; i < values.size(); ++i)
    if (singles[i])  // GW-BASIC reads `0.1` as a single, also into a double variable
      values[i].number = sng(values[i].number);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (kinds[i] == NUMBER && std::isinf(values[i].number)) {
      warn(OVERFLOW_ERROR);
      values[i].number = std::copysign(std::numeric_limits<double>::max(), values[i].number);
    }
  }
  return values;
}

// ============================================================================ console.py

inline constexpr int MARGIN = 80;
inline constexpr int UNLIMITED = 2147483647;  // the margin of a file: lines are never folded
inline constexpr int FILE_WIDTH = 255;    // a Microsoft BASIC file's default WIDTH: never broken
inline constexpr int FILE_COLUMNS = 256;  // a file's column is a byte
inline constexpr int ZONE_WIDTH = 16;
inline constexpr int MS_ZONE_WIDTH = 14;  // Microsoft BASIC
inline constexpr const char* INPUT_PROMPT = "? ";
inline constexpr const char* INVALID_TAB = "invalid TAB argument";
inline constexpr const char* INPUT_EOF = "error on input stream";
inline constexpr const char* SEED_PROMPT = "Random number seed (-32768 to 32767)? ";

// The BASIC program's terminal: output column tracking and INPUT replies.
class Console;

class Console {
 public:
  // `strict`: ECMA-55's limits on INPUT replies (parse_reply); `precision`: PRINT USING's
  // numbers; `margin`: UNLIMITED for a file.  The layout, TAB, SPC and INPUT replies are
  // GW-BASIC's when the program runs as Microsoft BASIC (`use_dialect`, before any
  // console is made).
  explicit Console(std::FILE* out = stdout, std::FILE* in = stdin, bool strict = true,
                   UsingPrecision precision = REAL, int margin = MARGIN)
      : out_(out),
        in_(in),
        strict_(strict),
        precision_(precision),
        margin_(margin),
        microsoft_(microsoft()),
        file_width_(margin == UNLIMITED && microsoft_ ? FILE_WIDTH : -1) {
    if (margin != UNLIMITED) {  // the screen, whose column POS reads and INKEY$ reads from
      screen() = this;
      // GW-BASIC writes Division by zero and Overflow where the cursor is, then ends the
      // line, and the program goes on.
      warnings_screen() = microsoft_ ? &Console::show_line : nullptr;
    }
  }

  // WIDTH #n, width of a file (Microsoft BASIC).
  void set_width(int width) {
    file_width_ = width;
  }
  Console(const Console&) = delete;
  Console& operator=(const Console&) = delete;
  ~Console() {
    if (screen() == this) {
      screen() = nullptr;
      warnings_screen() = nullptr;
    }
  }

  static void show_line(const std::string& text) {
    if (screen() != nullptr)
      screen()->print(text).newline();
  }

  // The last screen made.
  static Console*& screen() {
    static Console* console = nullptr;
    return console;
  }

  // TRON (true) and TROFF (false).
  void trace(bool on) {
    tracing_ = on;
  }

  // A numbered line starts running: `[number]` while tracing is on.
  void trace_line(int number) {
    if (tracing_)
      write_string("[" + std::to_string(number) + "]");
  }

  // The 0-based column where the next character goes.
  int column() const {
    return column_;
  }

  void write_string(const std::string& value) {
    if (microsoft_) {
      write_microsoft(value);
      return;
    }
    const std::size_t length = text_length(value);
    const std::size_t margin = static_cast<std::size_t>(margin_);
    if (column_ + length > margin) {
      if (column_ > 0)
        put("\n");
      std::string text = value;
      while (text_length(text) > margin) {
        const std::size_t cut = text_offset(text, margin);
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

  // Part of a WRITE line: GW-BASIC writes the line whole, so a file's WIDTH does not
  // break it (elsewhere as write_string).
  void write_unbroken(const std::string& text) {
    if (file_width_ < 0) {
      write_string(text);
      return;
    }
    put(text);
    column_ = column_after(column_, text);
  }

  void write_number(double x) {
    const std::string text = format_number(x);
    if (microsoft_) {
      write_microsoft(text);
      return;
    }
    const int length = static_cast<int>(text.size());
    if (column_ + length > margin_) {
      put("\n" + text);
      column_ = length;
    } else {
      put(text);
      column_ += length;
    }
  }

  // A double-precision number (Microsoft BASIC): 16 digits.
  void write_double(double x) {
    if (machine_numbers() != nullptr) {  // an 8-bit machine prints every number its one way
      write_microsoft(format_number(x));
      return;
    }
    write_microsoft(format_double(x) + " ");
  }

  // The `,` separator: the next zone, or a new line from the last zone.
  void next_zone() {
    if (file_width_ >= 0) {
      zone_file();
      return;
    }
    if (microsoft_) {
      // GW-BASIC's 14 columns, or an 8-bit machine's zones (machines.py).
      const MachineNumbers* machine = machine_numbers();
      const int zone_width = machine != nullptr ? machine->zone_width : MS_ZONE_WIDTH;
      const int zone = column_ / zone_width + 1;
      if (zone >= margin_ / zone_width) {
        line_feed();
      } else {
        put(std::string(zone_width * zone - column_, ' '));
        column_ = zone_width * zone;
      }
      return;
    }
    const int width = ZONE_WIDTH - column_ % ZONE_WIDTH;
    if (column_ + width >= margin_) {
      newline();
    } else {
      put(std::string(width, ' '));
      column_ += width;
    }
  }

  Console& tab(double x) {
    if (microsoft_) {
      const int width = file_width_ >= 0 ? nonzero_width() : margin_;
      const int target = static_cast<int>(std::max(to_word(x) - first_column(), 0L) % width);
      if (target < column_)
        line_feed();
      put(std::string(target - column_, ' '));
      column_ = target;
      return *this;
    }
    int n = round_to_int(x);
    if (n < 1) {
      warn(INVALID_TAB, "(" + format_number_trimmed(n) + ")");
      n = 1;
    }
    const int target = (n - 1) % margin_;
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

  // SPC(n): n spaces (modulo the margin); those past the margin go on a new line.
  Console& spc(double x) {
    if (file_width_ >= 0) {
      write_spaces(static_cast<int>(to_word(x) % nonzero_width()));
      return *this;
    }
    int count = static_cast<int>(to_word(x) % margin_);
    const int room = margin_ - column_;
    if (count > room) {
      put(std::string(room, ' ') + "\n");
      column_ = 0;
      count -= room;
    }
    put(std::string(count, ' '));
    column_ += count;
    return *this;
  }

  Console& newline() {
    if (microsoft_ && column_ == margin_)
      put("\n");  // GW-BASIC's screen: a full line leaves the cursor after it
    line_feed();
    return *this;
  }

  // One PRINT USING statement: con.print_using("##.##").item(x).item(y).end();
  UsingWriter<Console> print_using(const std::string& fmt) {
    return UsingWriter<Console>(*this, fmt, precision_);
  }

  // One WRITE statement: con.write_items().item(a).item(b).end();
  class ItemWriter write_items();

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
  Console& print(Double x) {
    write_double(x.value);
    return *this;
  }
  Console& print(ValNumber x) {
    return x.is_double ? print(Double{x.value}) : print(x.value);
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
  // `prompt`: the text before "? " (none after it when `question` is false: Microsoft's
  // `INPUT "prompt", A`); `stay`: the line goes on after the prompt (`INPUT;`).  End of
  // input is fatal.
  std::vector<Value> input(const std::string& prompt, const std::vector<Kind>& kinds,
                           bool question = true, bool stay = false) {
    return ask_values(&prompt, kinds, question, stay);
  }
  // Without a prompt: "? " (the same arguments as Python's con.input(None, kinds, ...)).
  std::vector<Value> input(const std::vector<Kind>& kinds, bool question = true,
                           bool stay = false) {
    return ask_values(nullptr, kinds, question, stay);
  }

 private:
  std::vector<Value> ask_values(const std::string* prompt, const std::vector<Kind>& kinds,
                                bool question, bool stay) {
    std::string text = prompt != nullptr ? *prompt : "";
    text += input_question(prompt != nullptr, question);
    for (;;) {
      const std::string line = ask(text, stay);
      try {
        return microsoft_ ? parse_ms_reply(line, kinds) : parse_reply(line, kinds, strict_);
      } catch (const ReplyRejected& rejected) {
        if (!microsoft_) {
          notify(Notice{rejected.what, rejected.detail, ERROR});
          continue;
        }
        write_string(REDO);
        newline();
      }
    }
  }

 public:
  // GW-BASIC's RANDOMIZE without a seed: asks until the reply is a number (an empty one
  // is 0), rounded to an integer (beyond 16 bits, the fatal "Overflow").
  double ask_seed() {
    for (;;) {
      put(SEED_PROMPT);
      std::fflush(out_);
      column_ = 0;
      std::string line;
      if (!read_line(&line))
        throw Fault(INPUT_EOF);
      const std::size_t first = line.find_first_not_of(' ');
      if (first == std::string::npos)
        return 0.0;
      const std::string text = line.substr(first, line.find_last_not_of(' ') - first + 1);
      double value = 0.0;
      if (parse_number(text, &value))
        return cint(value);
    }
  }

  // LINE INPUT: the next line whole, up to 255 characters (the rest is dropped).
  std::string line_input(const std::string& prompt, bool stay = false) {
    const std::string line = ask(prompt, stay);
    return line.substr(0, text_offset(line, MS_MAX_LENGTH));
  }
  // (a literal prompt: without this, a `const char*` would rather become the `bool`)
  std::string line_input(const char* prompt, bool stay = false) {
    return line_input(std::string(prompt), stay);
  }
  // Without a prompt.
  std::string line_input(bool stay = false) { return line_input(std::string(), stay); }

  // INKEY$: the next character of the input, "" at its end; a line break is CHR$(13).
  std::string inkey() {
    int c = std::getc(in_);
    if (c == EOF)
      return "";
    if (c == '\r' || c == '\n') {
      if (c == '\r') {  // Python's universal newlines read "\r\n" as one "\n"
        const int next = std::getc(in_);
        if (next != '\n' && next != EOF)
          std::ungetc(next, in_);
      }
      return "\r";
    }
    std::string key(1, static_cast<char>(c));
    const unsigned char lead = static_cast<unsigned char>(c);
    const int extra = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
    for (int i = 0; i < extra; ++i) {
      const int more = std::getc(in_);
      if (more == EOF)
        break;
      key.push_back(static_cast<char>(more));
    }
    return key;
  }

 private:
  void put(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), out_);
  }

  void line_feed() {
    put(file_width_ >= 0 ? "\r\n" : "\n");  // GW-BASIC ends a file's lines with CR LF
    column_ = 0;
  }

  // GW-BASIC's layout (console.py): an item that would pass column 80 starts a new line
  // unless the line is empty; a longer one wraps on the screen (the column goes on from
  // 0) without a newline in the output.
  void write_microsoft(const std::string& text) {
    if (file_width_ >= 0) {
      write_file(text);
      return;
    }
    bool control = false;
    for (unsigned char c : text)
      control = control || c < ' ';
    if (control) {
      write_controls(text);
      return;
    }
    const int length = static_cast<int>(text_length(text));
    if (column_ > 0 && column_ + length > margin_)
      line_feed();
    put(text);
    int column = column_ + length;
    while (column > margin_)
      column -= margin_;
    column_ = column;
  }

  // Text with control characters on GW-BASIC's screen (console.py's _screen_width and
  // _screen_column): CR and LF start a new line (CR written as a line end), TAB goes to
  // the next multiple of 8, CHR$(11) and CHR$(12) to column 0, CHR$(28) and CHR$(29) one
  // column right and left, BEL, CHR$(30) and CHR$(31) stay; other characters take one.
  void write_controls(const std::string& text) {
    int width = 0;
    for (unsigned char c : text) {
      if (c == '\r' || c == '\n') {
        width = 0;
        break;
      }
      if (c == '\b')
        --width;
      else if (c >= ' ' && (c & 0xC0) != 0x80)
        ++width;
    }
    if (column_ > 0 && column_ + width > margin_)
      line_feed();
    for (unsigned char c : text) {
      put(c == '\r' ? std::string("\n") : std::string(1, static_cast<char>(c)));
      if (c == '\r' || c == '\n' || c == '\x0b' || c == '\x0c') {
        column_ = 0;
      } else if (c == '\t') {
        column_ = (column_ / 8 + 1) * 8;
        if (column_ >= margin_)
          column_ -= margin_;
      } else if (c == '\x1c') {
        column_ = column_ + 1 >= margin_ ? 0 : column_ + 1;
      } else if (c == '\x1d') {
        column_ = std::max(column_ - 1, 0);
      } else if (c != '\x07' && c != '\x1e' && c != '\x1f' && (c & 0xC0) != 0x80) {
        if (++column_ > margin_)
          column_ -= margin_;
      }
    }
  }

  // GW-BASIC's files (console.py's _write_file): an item that would pass the width (up
  // to its first line end) starts a new line unless the line is empty or the width is
  // 255; characters below CHR$(32) take no column, CR goes back to column 0, and the
  // column wraps from 255 to 0.  `,` goes to the next 14-column zone, or ends the line
  // from the last zone of a width other than 255.
  static int column_after(int column, const std::string& text) {
    for (unsigned char c : text) {
      if (c == '\r')
        column = 0;
      else if (c >= ' ' && (c & 0xC0) != 0x80)  // one column per character
        column = (column + 1) % FILE_COLUMNS;
    }
    return column;
  }

  void write_file(const std::string& text) {
    if (file_width_ != FILE_WIDTH && column_ > 0 && text.find_first_of("\r\n") == std::string::npos) {
      int printed = 0;
      for (unsigned char c : text)
        printed += c >= ' ' && (c & 0xC0) != 0x80;
      if (column_ + printed > file_width_)
        line_feed();
    }
    put(text);
    column_ = column_after(column_, text);
  }

  void zone_file() {
    const int zone = column_ / MS_ZONE_WIDTH + 1;
    if (zone >= std::max(1, file_width_ / MS_ZONE_WIDTH) && file_width_ >= MS_ZONE_WIDTH &&
        file_width_ != FILE_WIDTH)
      line_feed();
    else
      write_spaces(MS_ZONE_WIDTH * zone - column_);
  }

  void write_spaces(int count) {
    put(std::string(count, ' '));
    column_ = (column_ + count) % FILE_COLUMNS;
  }

  // The width TAB and SPC reduce by: WIDTH #n, 0 gives them none.
  int nonzero_width() const {
    if (file_width_ == 0)
      throw Fault(ILLEGAL_FUNCTION_CALL, "(TAB or SPC in a file of WIDTH 0)");
    return file_width_;
  }

  // One line without its line break, as Python's sys.stdin.readline() and Console.input
  // see it: "\n", "\r\n" and a lone "\r" end a line (universal newlines).  False at end
  // of input with nothing read.
  bool read_line(std::string* line) {
    int c = std::getc(in_);
    if (c == EOF)
      return false;
    while (c != EOF && c != '\n' && c != '\r') {
      line->push_back(static_cast<char>(c));
      c = std::getc(in_);
    }
    if (c == '\r') {
      const int next = std::getc(in_);
      if (next != '\n' && next != EOF)
        std::ungetc(next, in_);
    }
    return true;
  }

  // Print `prompt` and read one line (without its line break); end of input is fatal.
  std::string ask(const std::string& prompt, bool stay) {
    put(prompt);
    std::fflush(out_);
    column_ = stay ? column_ + static_cast<int>(text_length(prompt)) : 0;
    std::string line;
    if (!read_line(&line))
      throw Fault(INPUT_EOF);
    return line;
  }

  std::FILE* out_;
  std::FILE* in_;
  bool strict_;
  UsingPrecision precision_;
  int margin_;
  bool microsoft_;
  int file_width_;  // a Microsoft BASIC file's WIDTH (write_file); -1 elsewhere
  int column_ = 0;
  bool tracing_ = false;
};

// One WRITE statement: items separated by commas, strings in quotes, numbers as PRINT
// writes them without the spaces around them.  con.write_items().item(a).item(b).end();
class ItemWriter {
 public:
  explicit ItemWriter(Console& channel) : channel_(channel) {}

  ItemWriter& item(double x) {
    return put(format_number_trimmed(x));
  }
  ItemWriter& item(Double x) {  // Microsoft BASIC: its 16 digits, without the space
    const std::string text = format_double(x.value);
    return put(text[0] == ' ' ? text.substr(1) : text);
  }
  ItemWriter& item(ValNumber x) {
    return x.is_double ? item(Double{x.value}) : item(x.value);
  }
  ItemWriter& item(const std::string& text) {
    return put("\"" + text + "\"");
  }
  ItemWriter& item(const char* text) {
    return item(std::string(text));
  }
  void end(bool newline = true) {
    if (newline)
      channel_.newline();
  }

 private:
  ItemWriter& put(const std::string& text) {
    channel_.write_unbroken(first_ ? text : "," + text);
    first_ = false;
    return *this;
  }

  Console& channel_;
  bool first_ = true;
};

inline ItemWriter Console::write_items() {
  return ItemWriter(*this);
}

// The column of the screen's cursor, 1 at the start of a line and after a full line
// (Microsoft BASIC; the argument is a dummy).
inline double POS(double) {
  const double origin = first_column();  // 0 on a Commodore
  return Console::screen() != nullptr ? Console::screen()->column() % MARGIN + origin : origin;
}

// The free memory (Microsoft BASIC; the argument is a dummy): a constant, FREE_MEMORY of
// console.py (what PC-BASIC prints for `10 PRINT FRE(0)`).
inline constexpr double FREE_MEMORY = 60288.0;
inline double FRE(double) {
  return FREE_MEMORY;
}
inline double FRE(const std::string&) {
  return FREE_MEMORY;
}

// ============================================================================ files.py

inline constexpr const char* SCRATCH_VARIABLE = "BASIC2TILE_SCRATCH";
inline constexpr int MAX_FILE_NUMBER = 255;
inline constexpr const char* BAD_FILE_NUMBER = "Bad file number";
inline constexpr const char* BAD_FILE_MODE = "Bad file mode";
inline constexpr const char* BAD_FILE_NAME = "Bad file name";
inline constexpr const char* FILE_NOT_FOUND = "File not found";
inline constexpr const char* FILE_ALREADY_OPEN = "File already open";
inline constexpr const char* FILE_ALREADY_EXISTS = "File already exists";
inline constexpr const char* INPUT_PAST_END = "Input past end";
inline constexpr const char* PATH_NOT_FOUND = "Path not found";
inline constexpr const char* ACCESS_ERROR = "Path/File access error";
inline constexpr const char* FIELD_OVERFLOW = "FIELD overflow";
inline constexpr const char* BAD_RECORD_NUMBER = "Bad record number";
inline constexpr int DEFAULT_RECORD_LENGTH = 128;
inline constexpr int MAX_RECORD_LENGTH = 32767;
inline constexpr double MAX_RECORD_NUMBER = 33554432.0;  // 2^25, PC-BASIC's limit

namespace fs = std::filesystem;

inline char upper_ascii(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

// A DOS device (KYBD: SCRN: CONS: LPTn: COMn: CASn:) or a drive letter (A:...).
inline bool is_dos_device(const std::string& name) {
  const std::size_t colon = name.find(':');
  if (colon == std::string::npos)
    return false;
  std::string head;
  for (std::size_t i = 0; i < colon; ++i)
    head += upper_ascii(name[i]);
  if (head.size() == 1)
    return head[0] >= 'A' && head[0] <= 'Z';
  if (head == "KYBD" || head == "SCRN" || head == "CONS")
    return true;
  const std::string prefix = head.substr(0, 3);
  return head.size() == 4 && (prefix == "LPT" || prefix == "COM" || prefix == "CAS") &&
         is_digit(head[3]);
}

// Why `path` cannot be found, if it cannot ("" if it exists).
inline std::string missing_reason(const fs::path& path) {
  std::error_code error;
  if (fs::exists(fs::symlink_status(path, error)))
    return "";
  return fs::is_directory(path.parent_path(), error) ? FILE_NOT_FOUND : PATH_NOT_FOUND;
}

inline Fault file_fault(const fs::path& path, const std::string& name) {
  const std::string missing = missing_reason(path);
  return Fault(missing.empty() ? ACCESS_ERROR : missing.c_str(), "(" + name + ")");
}

inline std::string upper_ascii_text(std::string text) {
  for (char& c : text)
    c = upper_ascii(c);
  return text;
}

// `path` (absolute), or the existing file or folder whose name matches it but for the
// case of ASCII letters, component by component (the exact name first, else the first
// match in sorted order); where nothing matches, the rest as written.
inline fs::path dos_path(const fs::path& path) {
  std::error_code error;
  if (fs::exists(fs::symlink_status(path, error)))
    return path;
  const fs::path name = path.filename();
  if (name.empty() || path.parent_path() == path)
    return path;
  const fs::path folder = dos_path(path.parent_path());
  std::vector<std::string> entries;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error))
    entries.push_back(it->path().filename().string());
  std::sort(entries.begin(), entries.end());
  const std::string wanted = upper_ascii_text(name.string());
  for (const std::string& entry : entries)
    if (upper_ascii_text(entry) == wanted)
      return folder / entry;
  return folder / name;
}

// Where a BASIC file name is read and written: in place, or in a scratch folder.
class FileSystem {
 public:
  explicit FileSystem(std::string scratch = "") : scratch_(std::move(scratch)) {}

  bool scratch() const {
    return !scratch_.empty();
  }

  // The absolute path of `name` (from CHDIR's folder): an existing file whose name
  // matches but for case (dos_path), else the name as written.
  fs::path key(const std::string& name) const {
    if (name.empty() || name.find('\0') != std::string::npos)
      throw Fault(BAD_FILE_NAME, name.empty() ? "(an empty name)" : "");
    if (is_dos_device(name))
      throw Fault(BAD_FILE_NAME, "(" + name + ": devices and drive letters are not supported)");
    std::error_code error;
    const fs::path from = current_.empty() ? fs::current_path(error) : current_;
    fs::path path = (from / fs::path(name)).lexically_normal();
    if (!path.has_filename() && path.has_relative_path())
      path = path.parent_path();  // "SUB/" is SUB, as Python's normpath has it
    return dos_path(path);
  }

  // One text for every spelling of a file's name: which files are open, KILLed.
  std::string identity(const std::string& name) const {
    return upper_ascii_text(key(name).string());
  }

  // The path to read `name` from (it may not exist); empty if KILL removed it.
  fs::path reading(const std::string& name) const {
    const fs::path real = key(name);
    if (!scratch())
      return real;
    const fs::path copy = mirror(real);
    std::error_code error;
    if (fs::exists(fs::symlink_status(copy, error)))
      return copy;
    return hidden_.count(identity(name)) ? fs::path() : real;
  }

  // The path to write `name` to; for APPEND, a real file is copied there first.
  fs::path writing(const std::string& name, bool append) {
    const fs::path real = key(name);
    if (!scratch())
      return real;
    const fs::path copy = mirror(real);
    std::error_code error;
    const fs::path folder = real.parent_path();
    if (!is_folder(folder)) {
      if (fs::is_directory(folder, error))  // a real folder RMDIR removed
        throw Fault(PATH_NOT_FOUND, "(" + name + ")");
      return real;  // fails as the real path would: "Path not found"
    }
    fs::create_directories(copy.parent_path(), error);
    const bool copied =
        append && !fs::exists(fs::symlink_status(copy, error)) && !hidden_.count(identity(name));
    if (copied && fs::is_regular_file(real, error))
      fs::copy_file(real, copy, fs::copy_options::overwrite_existing, error);
    hidden_.erase(identity(name));
    return copy;
  }

  bool exists(const std::string& name) const {
    const fs::path path = reading(name);
    std::error_code error;
    return !path.empty() && fs::is_regular_file(path, error);
  }

  // Folders (MKDIR, RMDIR).  In scratch mode a new folder is made in the scratch
  // folder, and RMDIR of a real one only hides it, as KILL hides a real file.

  // Whether the folder at the absolute path `key` is there for the program.
  bool is_folder(const fs::path& key) const {
    std::error_code error;
    if (scratch() && fs::is_directory(mirror(key), error))
      return true;
    return fs::is_directory(key, error) && !hidden_.count(upper_ascii_text(key.string()));
  }

  // MKDIR: a file or folder of that name is "Path/File access error", a missing parent
  // folder "Path not found" (GW-BASIC's errors 75 and 76).
  void make_folder(const std::string& name) {
    const fs::path real = key(name);
    if (is_folder(real) || exists(name))
      throw Fault(ACCESS_ERROR, "(" + name + ")");
    if (!is_folder(real.parent_path()))
      throw Fault(PATH_NOT_FOUND, "(" + name + ")");
    std::error_code error;
    if (!scratch()) {
      if (!fs::create_directory(real, error))
        throw file_fault(real, name);
      return;
    }
    fs::create_directories(mirror(real), error);
  }

  // RMDIR: no such folder (a file too) is "Path not found", a folder that is not empty
  // "Path/File access error".
  void remove_folder(const std::string& name) {
    const fs::path real = key(name);
    if (!is_folder(real))
      throw Fault(PATH_NOT_FOUND, "(" + name + ")");
    if (!visible_entries(real).empty())
      throw Fault(ACCESS_ERROR, "(" + name + ")");
    std::error_code error;
    if (!scratch()) {
      if (!fs::remove(real, error))
        throw file_fault(real, name);
      return;
    }
    const fs::path copy = mirror(real);
    if (fs::is_directory(copy, error))
      fs::remove(copy, error);
    if (fs::is_directory(real, error))
      hidden_.insert(upper_ascii_text(real.string()));
  }

  void remove(const std::string& name) {
    if (!exists(name))
      throw Fault(FILE_NOT_FOUND, "(" + name + ")");
    const fs::path path = reading(name);
    if (scratch() && path == key(name)) {
      hidden_.insert(identity(name));
      return;
    }
    if (std::remove(path.c_str()) != 0)  // a file: exists() checked it
      throw file_fault(path, name);
    if (scratch())
      hidden_.insert(identity(name));
  }

  // CHDIR: the folder names are found from; no such folder is "Path not found".
  void change_folder(const std::string& name) {
    const fs::path real = key(name);
    if (!is_folder(real))
      throw Fault(PATH_NOT_FOUND, "(" + name + ")");
    current_ = real;
  }

 private:
  fs::path mirror(const fs::path& real) const {
    return dos_path(fs::path(scratch_) / real.relative_path());
  }

  // The names in the folder `key` the program can see.
  std::set<std::string> visible_entries(const fs::path& key) const {
    std::set<std::string> found;
    std::error_code error;
    if (scratch() && fs::is_directory(mirror(key), error))
      for (const auto& entry : fs::directory_iterator(mirror(key), error))
        found.insert(entry.path().filename().string());
    if (fs::is_directory(key, error))
      for (const auto& entry : fs::directory_iterator(key, error))
        if (!hidden_.count(upper_ascii_text(entry.path().string())))
          found.insert(entry.path().filename().string());
    return found;
  }

  std::string scratch_;
  // real files KILLed and folders RMDIRed in scratch mode, by identity
  std::set<std::string> hidden_;
  fs::path current_;  // CHDIR's folder (empty: the process's)
};

// A file open for INPUT: its text, read whole when it is opened.
class InputFile {
 public:
  // Its line end is CR (read() reads CR LF as one CR).  With `soft_linefeed` (--dialect
  // ms, as GW-BASIC) a lone LF is a character: LINE INPUT # keeps it (and a CR right
  // after it), INPUT # drops it (and such a CR) outside quotes; without, every LF is a
  // line end (files.py).
  InputFile(const fs::path& path, const std::string& name, bool soft_linefeed)
      : blanks_(soft_linefeed ? std::string(" \0\n", 3) : std::string(" \0", 2)) {
    std::error_code error;
    if (path.empty())
      throw Fault(FILE_NOT_FOUND, "(" + name + ")");
    std::FILE* handle = fs::is_directory(path, error) ? nullptr : std::fopen(path.c_str(), "rb");
    if (handle == nullptr)
      throw file_fault(path, name);
    std::string data;
    char buffer[65536];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, handle)) > 0)
      data.append(buffer, n);
    std::fclose(handle);
    size_ = data.size();
    data = data.substr(0, data.find('\x1a'));  // Ctrl-Z ends a DOS text file
    if (soft_linefeed) {
      text_ = data;
      return;
    }
    for (std::size_t i = 0; i < data.size(); ++i) {  // every line end one CR
      if (data[i] == '\r' || data[i] == '\n') {
        text_ += '\r';
        if (data[i] == '\r' && i + 1 < data.size() && data[i + 1] == '\n')
          ++i;
      } else {
        text_ += data[i];
      }
    }
  }

  bool at_end() const {
    return pos_ >= text_.size();
  }
  std::size_t size() const {
    return size_;
  }

  // INPUT # items and LINE INPUT # lines as GW-BASIC reads them (files.py).
  double number() {
    double value = 0.0;
    if (number_text(entry(true), false, &value) == NumberText::kOverflow)
      throw Fault(OVERFLOW_ERROR);
    return value;
  }

  std::string string() {
    return entry(false);
  }

  // LINE INPUT #: up to a CR (CR LF) that does not follow an LF, at most 255 characters
  // (the rest is the next line).
  std::string line() {
    if (at_end())
      throw Fault(INPUT_PAST_END);
    std::string out;
    for (std::size_t count = 0; count < MS_MAX_LENGTH; ++count) {
      const std::string before = previous_;
      const std::string c = read();
      if (c.empty() || (c == "\r" && before != "\n"))
        break;
      out += c;
    }
    return out;
  }

 private:
  // The next character (its UTF-8 bytes), consumed; "" at the end.  A CR LF is one line
  // end, read as CR (`line_ends`; not inside quotes, nor right after an LF).
  std::string read(bool line_ends = true) {
    if (pos_ >= text_.size())
      return "";
    std::size_t end = pos_ + 1;
    while (end < text_.size() && (static_cast<unsigned char>(text_[end]) & 0xC0) == 0x80)
      ++end;
    std::string c = text_.substr(pos_, end - pos_);
    if (line_ends && c == "\r" && previous_ != "\n" && end < text_.size() && text_[end] == '\n')
      ++end;
    pos_ = end;
    previous_ = c;
    return c;
  }

  // The text of the next item, its separator consumed (see files.py).
  std::string entry(bool number) {
    const std::string last = skip(blanks_);
    const bool escaped = last == std::string(1, '\0') || last == "\n";
    std::string c = read();
    const bool quoted = c == "\"" && !number && !escaped;
    if (quoted)
      c = read(false);
    if (c.empty() && !escaped)
      throw Fault(INPUT_PAST_END);
    std::string word, blanks;
    std::size_t length = 0;  // characters in word and blanks
    while (!c.empty() && !((number && c == " ") || ((c == "," || c == "\r") && !quoted))) {
      if (quoted && c == "\"")
        break;
      if (c == "\n" && !quoted) {  // LF and LF CR are dropped (GW-BASIC)
        c = read();
        if (c == "\r")
          c = read();
        continue;
      }
      if (c == " " && !quoted) {
        blanks += c;  // kept only inside a string
        ++length;
      } else if (c != std::string(1, '\0')) {  // inside quotes a line end is kept
        word += blanks + c;
        blanks.clear();
        ++length;
      }
      if (length >= MS_MAX_LENGTH)
        break;
      c = read(!quoted);
    }
    if (c == " " || c == std::string(1, '\0') || (quoted && c == "\"")) {
      skip(" ");
      if (pos_ < text_.size() && (text_[pos_] == ',' || text_[pos_] == '\r'))
        read();
    }
    return word;
  }

  // Skip `characters` (single bytes); the last one skipped ("" if none).
  std::string skip(const std::string& characters) {
    std::string last;
    while (pos_ < text_.size() && characters.find(text_[pos_]) != std::string::npos)
      last = read(false);
    return last;
  }

  std::string blanks_;  // skipped before an item
  std::string text_;
  std::size_t pos_ = 0;
  std::size_t size_ = 0;
  std::string previous_;  // the character read last
};

// APPEND writes over a Ctrl-Z that ends a DOS file (GW-BASIC writes one; else what is
// appended would come after the end of the file's text), as PC-BASIC does.
inline void drop_end_of_file(const fs::path& path) {
  std::error_code error;
  if (!fs::is_regular_file(path, error))
    return;
  const std::uintmax_t size = fs::file_size(path, error);
  if (error || size == 0)
    return;
  std::FILE* handle = std::fopen(path.c_str(), "rb");
  if (handle == nullptr)
    return;
  std::fseek(handle, -1, SEEK_END);
  const bool marked = std::fgetc(handle) == 0x1a;
  std::fclose(handle);
  if (marked)
    fs::resize_file(path, size - 1, error);
}

// A file open for OUTPUT or APPEND: a Console without a margin.
class OutputFile {
 public:
  OutputFile(const fs::path& path, const std::string& name, bool append, UsingPrecision precision)
      : mode_(append ? 'A' : 'O') {
    std::error_code error;
    if (append)
      drop_end_of_file(path);
    handle_ =
        fs::is_directory(path, error) ? nullptr : std::fopen(path.c_str(), append ? "ab" : "wb");
    if (handle_ == nullptr)
      throw file_fault(path, name);
    console_ = std::make_unique<Console>(handle_, stdin, false, precision, UNLIMITED);
  }
  ~OutputFile() {
    std::fclose(handle_);
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  char mode() const {
    return mode_;
  }
  Console& console() {
    return *console_;
  }
  std::size_t size() {
    std::fflush(handle_);
    return static_cast<std::size_t>(std::ftell(handle_));
  }

 private:
  char mode_;
  std::FILE* handle_;
  std::unique_ptr<Console> console_;
};

// ---------------------------------------------------------------- random-access files

// Text of characters 0 to 255 (UTF-8) as bytes, one per character; a character beyond
// 255 is "Illegal function call" (`what` says where).
inline std::string text_bytes(const std::string& text, const std::string& what) {
  std::string bytes;
  for (std::size_t i = 0; i < text.size(); i = next_code_point(text, i)) {
    const unsigned long c = first_code_point(text.substr(i, next_code_point(text, i) - i));
    if (c > 255)
      throw Fault(ILLEGAL_FUNCTION_CALL, "(" + what + ")");
    bytes.push_back(static_cast<char>(c));
  }
  return bytes;
}

// Bytes as text: each byte the character of its code (CHR$).
inline std::string byte_text(const std::string& bytes) {
  std::string text;
  for (unsigned char c : bytes)
    text += code_point_text(c);
  return text;
}

// A random-access file: records of `length` bytes, numbered from 1, read into and
// written from the start of its buffer by GET and PUT; `record` is the last one (LOC).
// The buffer is its number's (FileTable's buffers_), shared with the FIELD variables.
class RandomFile {
 public:
  RandomFile(const fs::path& path, const std::string& name, int length,
             std::shared_ptr<std::string> buffer)
      : length_(length), buffer_(std::move(buffer)) {
    std::error_code error;
    handle_ = fs::is_directory(path, error) ? nullptr : std::fopen(path.c_str(), "r+b");
    if (handle_ == nullptr && !fs::exists(path, error))
      handle_ = std::fopen(path.c_str(), "w+b");
    if (handle_ == nullptr)
      throw file_fault(path, name);
  }
  ~RandomFile() {
    std::fclose(handle_);
  }
  RandomFile(const RandomFile&) = delete;
  RandomFile& operator=(const RandomFile&) = delete;

  int length() const {
    return length_;
  }
  long record() const {
    return record_;
  }
  const std::shared_ptr<std::string>& buffer() const {
    return buffer_;
  }
  std::size_t size() {
    std::fseek(handle_, 0, SEEK_END);
    return static_cast<std::size_t>(ftello(handle_));
  }
  // EOF: the last GET went past the end of the file.
  bool at_end() {
    return static_cast<double>(record_) * length_ > static_cast<double>(size());
  }
  void get(long record) {
    record = record == 0 ? record_ + 1 : record;
    seek(record);
    std::string data(length_, '\0');
    const std::size_t got = std::fread(data.data(), 1, data.size(), handle_);
    std::fill(data.begin() + static_cast<long>(got), data.end(), '\0');
    buffer_->replace(0, data.size(), data);
    record_ = record;
  }
  void put(long record) {
    record = record == 0 ? record_ + 1 : record;
    seek(record);  // a gap before it reads as NULs
    std::fwrite(buffer_->data(), 1, static_cast<std::size_t>(length_), handle_);
    std::fflush(handle_);
    record_ = record;
  }

 private:
  void seek(long record) {
    fseeko(handle_, static_cast<off_t>(record - 1) * length_, SEEK_SET);
  }

  int length_;
  std::shared_ptr<std::string> buffer_;
  std::FILE* handle_ = nullptr;
  long record_ = 0;
};

// GET's and PUT's record number: rounded, 1 to 2^25, else "Bad record number".
// (A number beyond a float's range is no record number either.)
inline long record_number(double x) {
  x = static_cast<float>(x);  // a single, as in PC-BASIC: 2^25 + 1 is 2^25
  if (!(0.5 <= x && x < MAX_RECORD_NUMBER + 0.5))
    throw Fault(BAD_RECORD_NUMBER, "(" + format_number_trimmed(x) + ")");
  return static_cast<long>(x + 0.5);
}

// The record length of OPEN: 1 to 32767 ("Overflow" beyond 16 bits).
inline int record_length(double x) {
  const int length = static_cast<int>(cint(x));
  if (length < 1 || length > MAX_RECORD_LENGTH)
    throw Fault(ILLEGAL_FUNCTION_CALL, "(a record length of " + std::to_string(length) + ")");
  return length;
}

// The FIELD variables: each string variable's place in a record buffer, by name
// (files.py's _Fields).  The generated code keeps the variables' values and assigns each
// its `value` again after FIELD, GET, LSET, RSET and the MID$ statement.
class Fields {
 public:
  struct Place {
    std::shared_ptr<std::string> buffer;
    int offset, width;
  };

  void bind(const std::shared_ptr<std::string>& buffer, const std::vector<int>& widths,
            const std::vector<std::string>& names) {
    int offset = 0;
    for (std::size_t i = 0; i < widths.size() && i < names.size(); ++i) {
      places_[names[i]] = Place{buffer, offset, widths[i]};
      offset += widths[i];
    }
  }
  std::string value(const std::string& name, const std::string& current) const {
    const auto found = places_.find(name);
    if (found == places_.end())
      return current;
    const Place& place = found->second;
    return byte_text(place.buffer->substr(place.offset, place.width));
  }
  // `text` into the variable's place (if it has one); returns `text`.
  std::string store(const std::string& name, const std::string& text) {
    const auto found = places_.find(name);
    if (found != places_.end()) {
      const Place& place = found->second;
      std::string bytes = text_bytes(text, "a record holds characters up to CHR$(255) only");
      bytes.resize(place.width, ' ');
      place.buffer->replace(place.offset, place.width, bytes);
    }
    return text;
  }
  // LSET or RSET: `text` cut or padded with spaces to the variable's width (a FIELD
  // variable's; an ordinary variable's current length).
  std::string justify(const std::string& name, const std::string& current,
                      const std::string& text, bool right) {
    const auto found = places_.find(name);
    const std::size_t width =
        found != places_.end() ? static_cast<std::size_t>(found->second.width) : text_length(current);
    const std::string cut = text_slice(text, 0, width);
    const std::string pad(width - text_length(cut), ' ');
    return store(name, right ? pad + cut : cut + pad);
  }
  void release(const std::vector<std::string>& names) {
    for (const std::string& name : names)
      places_.erase(name);
  }
  void swap(const std::string& first, const std::string& second) {
    const auto a = places_.find(first), b = places_.find(second);
    std::map<std::string, Place> moved;
    if (b != places_.end())
      moved.emplace(first, b->second);
    if (a != places_.end())
      moved.emplace(second, a->second);
    places_.erase(first);
    places_.erase(second);
    for (auto& entry : moved)
      places_.insert(entry);
  }

 private:
  std::map<std::string, Place> places_;
};

// GW-BASIC reads and writes a random-access file's record buffer there; not done here:
// a fatal error of our own, which no ON ERROR traps.
inline void not_random(bool random, const std::string& what) {
  if (random)
    throw Fault(what + " of a random-access file is not supported");
}

// The mode of OPEN: 'I', 'O', 'A' or 'R' (the first letter of the old form's string).
inline char open_mode(const std::string& mode) {
  const char letter = mode.empty() ? '\0' : upper_ascii(mode[0]);
  if (letter != 'I' && letter != 'O' && letter != 'A' && letter != 'R')
    throw Fault(BAD_FILE_MODE, "(\"" + mode + "\")");
  return letter;
}

// The files a program has open, by number.
class FileTable {
 public:
  explicit FileTable(UsingPrecision precision = REAL, std::string scratch = "")
      : precision_(precision), system_(std::move(scratch)) {}

  static int number(double n) {
    if (!(1 <= n && n < MAX_FILE_NUMBER + 0.5))
      throw Fault(BAD_FILE_NUMBER, "(#" + format_number_trimmed(n) + ")");
    return static_cast<int>(n + 0.5);
  }

  // `length` < 0: none given (128).
  void open(const std::string& name, const std::string& mode_text, double n, double length) {
    const int num = number(n);
    if (inputs_.count(num) || outputs_.count(num) || randoms_.count(num))
      throw Fault(FILE_ALREADY_OPEN, "(#" + std::to_string(num) + ")");
    const char mode = open_mode(mode_text);
    const int size = std::isnan(length) ? DEFAULT_RECORD_LENGTH : record_length(length);
    const std::string key = system_.identity(name);
    for (const auto& [other, path] : paths_) {
      const bool shared =
          (mode == 'I' && inputs_.count(other)) || (mode == 'R' && randoms_.count(other));
      if (path == key && !shared)
        throw Fault(FILE_ALREADY_OPEN, "(" + name + " as #" + std::to_string(other) + ")");
    }
    if (mode == 'I') {
      inputs_.emplace(num, std::make_unique<InputFile>(system_.reading(name), name, microsoft()));
    } else if (mode == 'R') {
      std::shared_ptr<std::string>& buffer = buffers_[num];
      if (!buffer)
        buffer = std::make_shared<std::string>();
      if (buffer->size() < static_cast<std::size_t>(size))
        buffer->resize(size, '\0');
      const fs::path path = system_.writing(name, true);
      randoms_.emplace(num, std::make_unique<RandomFile>(path, name, size, buffer));
    } else {
      const fs::path path = system_.writing(name, mode == 'A');
      outputs_.emplace(num, std::make_unique<OutputFile>(path, name, mode == 'A', precision_));
    }
    paths_[num] = key;
  }

  Console& output(double n) {
    const int num = open_number(n);
    not_random(randoms_.count(num) > 0, "PRINT # and WRITE #");
    if (inputs_.count(num))
      throw Fault(BAD_FILE_MODE, "(#" + std::to_string(num) + " is open for input)");
    return outputs_.at(num)->console();
  }

  std::vector<Value> input(double n, const std::vector<Kind>& kinds) {
    InputFile& file = input_file(n);
    std::vector<Value> values;
    for (Kind kind : kinds) {
      Value value;
      if (kind == NUMBER)
        value.number = file.number();
      else
        value.text = file.string();
      values.push_back(std::move(value));
    }
    return values;
  }

  std::string line(double n) {
    return input_file(n).line();
  }

  double eof(double n) {
    const int num = open_number(n);
    if (randoms_.count(num))
      return randoms_.at(num)->at_end() ? -1.0 : 0.0;
    return inputs_.count(num) && inputs_.at(num)->at_end() ? -1.0 : 0.0;
  }

  double lof(double n) {
    const int num = open_number(n);
    if (inputs_.count(num))
      return static_cast<double>(inputs_.at(num)->size());
    if (randoms_.count(num))
      return static_cast<double>(randoms_.at(num)->size());
    return static_cast<double>(outputs_.at(num)->size());
  }

  double loc(double n) {
    const int num = open_number(n);
    if (randoms_.count(num))
      return static_cast<double>(randoms_.at(num)->record());
    if (inputs_.count(num))
      throw Fault(ILLEGAL_FUNCTION_CALL, "(LOC of a sequential input file is not supported)");
    return static_cast<double>(outputs_.at(num)->size() / 128);
  }

  // FIELD #n, widths[0] AS names[0], ...: "FIELD overflow" past the record length.
  void field(double n, const std::vector<double>& widths, const std::vector<std::string>& names) {
    RandomFile& file = random_file(n, BAD_FILE_NUMBER);
    std::vector<int> sizes;
    int total = 0;
    for (double width : widths) {
      const int size = static_cast<int>(cint(width));
      if (size < 0 || size > 255)
        throw Fault(ILLEGAL_FUNCTION_CALL, "(FIELD width " + std::to_string(size) + ")");
      sizes.push_back(size);
      total += size;
    }
    if (total > file.length())
      throw Fault(FIELD_OVERFLOW, "(" + std::to_string(total) + " bytes in a record of " +
                                      std::to_string(file.length()) + ")");
    fields_.bind(file.buffer(), sizes, names);
  }

  // GET (put false) or PUT #n[, record] (record NaN: the next); a closed file is "Bad
  // file mode", as in PC-BASIC.
  void record(double n, double record, bool put) {
    RandomFile& file = random_file(n, BAD_FILE_MODE);
    const long number = std::isnan(record) ? 0 : record_number(record);
    if (put)
      file.put(number);
    else
      file.get(number);
  }

  Fields& fields() {
    return fields_;
  }

  void close(const std::vector<double>& numbers) {
    std::vector<int> chosen;
    for (double n : numbers)
      chosen.push_back(number(n));
    if (numbers.empty())
      for (const auto& entry : paths_)
        chosen.push_back(entry.first);
    for (int num : chosen) {
      inputs_.erase(num);
      outputs_.erase(num);
      randoms_.erase(num);
      paths_.erase(num);
    }
  }

  // WIDTH #n, width: 0 to 255 (255: lines are never broken); a file open for input
  // keeps it without using it.
  void width(double n, double width) {
    const int num = open_number(n);
    not_random(randoms_.count(num) > 0, "WIDTH #");
    const int w = static_cast<int>(cint(width));
    if (w < 0 || w > FILE_WIDTH)
      throw Fault(ILLEGAL_FUNCTION_CALL,
                  "(WIDTH #" + std::to_string(num) + ", " + std::to_string(w) + ")");
    if (outputs_.count(num))
      outputs_.at(num)->console().set_width(w);
  }

  void make_folder(const std::string& name) {
    system_.make_folder(name);
  }

  void remove_folder(const std::string& name) {
    system_.remove_folder(name);
  }

  void change_folder(const std::string& name) {
    system_.change_folder(name);
  }

  void kill(const std::string& name) {
    if (is_open(system_.identity(name)))
      throw Fault(FILE_ALREADY_OPEN, "(" + name + ")");
    system_.remove(name);
  }

  void rename(const std::string& old_name, const std::string& new_name) {
    if (!system_.exists(old_name))
      throw Fault(FILE_NOT_FOUND, "(" + old_name + ")");
    if (system_.exists(new_name))
      throw Fault(FILE_ALREADY_EXISTS, "(" + new_name + ")");
    if (is_open(system_.identity(old_name)))
      throw Fault(FILE_ALREADY_OPEN, "(" + old_name + ")");
    const fs::path source = system_.reading(old_name);
    const fs::path target = system_.writing(new_name, false);
    if (!system_.scratch()) {
      if (std::rename(source.c_str(), target.c_str()) != 0)
        throw file_fault(source, old_name);
      return;
    }
    std::error_code error;
    if (!fs::copy_file(source, target, fs::copy_options::overwrite_existing, error))
      throw file_fault(source, old_name);
    system_.remove(old_name);
  }

 private:
  int open_number(double n) {
    const int num = number(n);
    if (!inputs_.count(num) && !outputs_.count(num) && !randoms_.count(num))
      throw Fault(BAD_FILE_NUMBER, "(#" + std::to_string(num) + " is not open)");
    return num;
  }

  RandomFile& random_file(double n, const char* not_open) {
    const int num = number(n);
    if (!inputs_.count(num) && !outputs_.count(num) && !randoms_.count(num))
      throw Fault(not_open, "(#" + std::to_string(num) + " is not open)");
    if (!randoms_.count(num))
      throw Fault(BAD_FILE_MODE, "(#" + std::to_string(num) + " is not a random-access file)");
    return *randoms_.at(num);
  }

  InputFile& input_file(double n) {
    const int num = open_number(n);
    not_random(randoms_.count(num) > 0, "INPUT # and LINE INPUT #");
    if (!inputs_.count(num))
      throw Fault(BAD_FILE_MODE, "(#" + std::to_string(num) + " is open for output)");
    return *inputs_.at(num);
  }

  bool is_open(const std::string& key) const {
    for (const auto& entry : paths_)
      if (entry.second == key)
        return true;
    return false;
  }

  UsingPrecision precision_;
  FileSystem system_;
  std::map<int, std::unique_ptr<InputFile>> inputs_;
  std::map<int, std::unique_ptr<OutputFile>> outputs_;
  std::map<int, std::unique_ptr<RandomFile>> randoms_;
  std::map<int, std::string> paths_;  // number -> the identity of its name
  Fields fields_;
  // The record buffer of each file number, as GW-BASIC has one: it outlives CLOSE (a
  // FIELD variable still shows it), and the next random file of that number uses it
  // again, contents and all (PC-BASIC).
  std::map<int, std::shared_ptr<std::string>> buffers_;
};

inline FileTable& file_table() {
  static FileTable table;
  return table;
}

// At the start of a run: no file open; scratch mode if $BASIC2TILE_SCRATCH is set.
inline void reset_files(UsingPrecision precision = REAL) {
  const char* scratch = std::getenv(SCRATCH_VARIABLE);
  file_table() = FileTable(precision, scratch != nullptr ? scratch : "");
}

inline void open_file(const std::string& name, const std::string& mode, double number) {
  file_table().open(name, mode, number, std::nan(""));
}

inline void open_file(const std::string& name, const std::string& mode, double number,
                      double length) {
  file_table().open(name, mode, number, length);
}

inline void field(double number, const std::vector<double>& widths,
                  const std::vector<std::string>& names) {
  file_table().field(number, widths, names);
}

inline void get_record(double number, double record = std::nan("")) {
  file_table().record(number, record, false);
}

inline void put_record(double number, double record = std::nan("")) {
  file_table().record(number, record, true);
}

// The value of string variable `name`: its bytes of a record buffer if it is a FIELD
// variable, else `current`.
inline std::string field_value(const std::string& name, const std::string& current) {
  return file_table().fields().value(name, current);
}

inline std::string field_store(const std::string& name, const std::string& text) {
  return file_table().fields().store(name, text);
}

inline std::string lset(const std::string& name, const std::string& current,
                        const std::string& text) {
  return file_table().fields().justify(name, current, text, false);
}

inline std::string rset(const std::string& name, const std::string& current,
                        const std::string& text) {
  return file_table().fields().justify(name, current, text, true);
}

inline void field_release(const std::vector<std::string>& names) {
  file_table().fields().release(names);
}

inline void field_swap(const std::string& first, const std::string& second) {
  file_table().fields().swap(first, second);
}

// ---------------------------------------------------------------- mbf.py

// x (within MBF's range) as Microsoft Binary Format with a mantissa of `bits` bits.
inline std::string mbf_bytes(double x, int bits) {
  std::string bytes(bits / 8 + 1, '\0');
  if (x == 0.0)
    return bytes;
  int exponent = 0;
  const double fraction = std::frexp(std::fabs(x), &exponent);  // 0.5 <= fraction < 1
  std::uint64_t mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, bits));
  mantissa &= ~(std::uint64_t{1} << (bits - 1));  // the leading 1 is implicit...
  if (x < 0.0)
    mantissa |= std::uint64_t{1} << (bits - 1);  // ...its place holds the sign
  for (int i = 0; i < bits / 8; ++i)
    bytes[i] = static_cast<char>((mantissa >> (8 * i)) & 0xFF);
  bytes[bits / 8] = static_cast<char>(exponent + 128);
  return byte_text(bytes);
}

inline double mbf_value(const std::string& text, int bits, const std::string& name) {
  const std::size_t size = bits / 8 + 1;
  if (text_length(text) < size)
    throw Fault(ILLEGAL_FUNCTION_CALL,
                "(" + name + " of " + std::to_string(text_length(text)) + " characters)");
  const std::string data =
      text_bytes(text_slice(text, 0, size), name + " of a character beyond CHR$(255)");
  const int exponent = static_cast<unsigned char>(data[size - 1]);
  if (exponent == 0)
    return 0.0;
  std::uint64_t mantissa = 0;
  for (std::size_t i = 0; i + 1 < size; ++i)
    mantissa |= static_cast<std::uint64_t>(static_cast<unsigned char>(data[i])) << (8 * i);
  const bool negative = (mantissa >> (bits - 1)) & 1;
  mantissa |= std::uint64_t{1} << (bits - 1);
  double value = std::ldexp(static_cast<double>(mantissa), exponent - 128 - bits);
  value = std::min(value, DOUBLE_MAX);
  return negative ? -value : value;
}

// MKI$(x): CINT(x) as 2 bytes, little-endian.
inline std::string MKIS(double x) {
  const long n = static_cast<long>(cint(x)) & 0xFFFF;
  return byte_text(std::string{static_cast<char>(n & 0xFF), static_cast<char>(n >> 8)});
}

inline std::string MKSS(double x) {
  return mbf_bytes(sng(x), 24);
}

inline std::string MKDS(double x) {
  return mbf_bytes(x, 56);
}

inline double CVI(const std::string& text) {
  if (text_length(text) < 2)
    throw Fault(ILLEGAL_FUNCTION_CALL,
                "(CVI of " + std::to_string(text_length(text)) + " characters)");
  const std::string data = text_bytes(text_slice(text, 0, 2), "CVI of a character beyond CHR$(255)");
  const int n = static_cast<unsigned char>(data[0]) | (static_cast<unsigned char>(data[1]) << 8);
  return static_cast<double>(n >= 0x8000 ? n - 0x10000 : n);
}

inline double CVS(const std::string& text) {
  return sng(mbf_value(text, 24, "CVS"));
}

inline double CVD(const std::string& text) {
  return mbf_value(text, 56, "CVD");
}

// CLOSE the numbers given, or every file (also at the end of the program).
template <class... Numbers>
inline void close_files(Numbers... numbers) {
  file_table().close({static_cast<double>(numbers)...});
}

// The channel PRINT #, PRINT # USING and WRITE # write to.
inline Console& file_output(double number) {
  return file_table().output(number);
}

inline std::vector<Value> file_input(double number, const std::vector<Kind>& kinds) {
  return file_table().input(number, kinds);
}

inline std::string file_line(double number) {
  return file_table().line(number);
}

inline void file_width(double number, double width) {
  file_table().width(number, width);
}

inline void kill_file(const std::string& name) {
  file_table().kill(name);
}

inline void rename_file(const std::string& old_name, const std::string& new_name) {
  file_table().rename(old_name, new_name);
}

// MKDIR, RMDIR and CHDIR.
inline void make_directory(const std::string& name) {
  file_table().make_folder(name);
}

inline void remove_directory(const std::string& name) {
  file_table().remove_folder(name);
}

inline void change_directory(const std::string& name) {
  file_table().change_folder(name);
}

// EOF(n) and LOF(n) (EOF is a macro of <cstdio>).
inline double file_eof(double number) {
  return file_table().eof(number);
}

inline double file_lof(double number) {
  return file_table().lof(number);
}

inline double file_loc(double number) {
  return file_table().loc(number);
}

// INKEY$, read from the program's screen (Console::inkey).
inline std::string INKEYS() {
  return Console::screen() != nullptr ? Console::screen()->inkey() : "";
}

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
  // `microsoft`: numbers read as GW-BASIC's constants (number_text with INPUT's rules:
  // &H1F, 1.5D3, blanks inside; an empty item is 0).
  // `lines`: each DATA line's number and its first item (GW-BASIC: a bad item is a
  // Syntax error in its DATA line, which ERL names).
  using LineStarts = std::vector<std::pair<int, std::size_t>>;
  template <std::size_t N>
  explicit DataPool(const DataItem (&items)[N], bool strict = true, bool microsoft = false,
                    const LineStarts& lines = {})
      : DataPool(std::vector<DataItem>(items, items + N), strict, microsoft, lines) {}
  explicit DataPool(const std::vector<DataItem>& items, bool strict = true,
                    bool microsoft = false, const LineStarts& lines = {})
      : strict_(strict) {
    for (const auto& [line, start] : lines)
      line_starts_.emplace_back(start, line);
    std::sort(line_starts_.begin(), line_starts_.end());
    for (const DataItem& item : items) {
      std::string text = item.text;
      if (!item.quoted) {  // an unquoted datum has no surrounding spaces
        const std::size_t first = text.find_first_not_of(' ');
        text = first == std::string::npos
                   ? ""
                   : text.substr(first, text.find_last_not_of(' ') - first + 1);
      }
      double value = 0.0;
      const bool numeric =
          !item.quoted && (microsoft ? number_text(text, true, &value) == NumberText::kNumber
                                     : parse_number(text, &value));
      texts_.push_back(text);
      numbers_.push_back(value);
      numeric_.push_back(numeric);
      // GW-BASIC reads `0.1` as a single, also into a double variable (val_is_double)
      singles_.push_back(microsoft && numeric && !val_is_double(text));
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
      throw Fault(STRING_INTO_NUMBER).in_line(line_of(i));
    position_ = i + 1;
    if (singles_[i])
      return sng(numbers_[i]);
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
  std::vector<bool> singles_;  // read as a single (Microsoft BASIC)
  std::vector<std::pair<std::size_t, int>> line_starts_;  // (first item, line), by item
  std::size_t position_ = 0;
  bool strict_;

  // The line number of the DATA statement holding `item` (-1: not known).
  int line_of(std::size_t item) const {
    int line = -1;
    for (const auto& [start, number] : line_starts_) {
      if (start > item)
        break;
      line = number;
    }
    return line;
  }
};

// ============================================================================ arrays

inline constexpr const char* SUBSCRIPT_OUT_OF_RANGE = "subscript out of range";
inline constexpr const char* NOT_DIMENSIONED = "array used before its DIM statement ran";
inline constexpr const char* BAD_BOUND = "invalid DIM bound";
inline constexpr std::size_t TOO_MANY_ELEMENTS = std::size_t{1} << 28;
inline constexpr double IMPLICIT_UPPER_BOUND = 10;  // an array used without DIM (limits.py)
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
    erased_ = false;
  }

  // ERASE (Microsoft BASIC): the array ceases to exist, until a DIM or a use.
  // `redim`: QuickBASIC's REDIM, which may make an array that did not exist.
  void erase(bool redim = false) {
    if (!allocated_ && redim)
      return;
    if (!allocated_)
      throw Fault(ILLEGAL_FUNCTION_CALL, "(ERASE " + name_ + ": no such array)");
    upper_.assign(upper_.size(), base_ - 1);
    data_.clear();
    size_ = 0;
    allocated_ = false;
    erased_ = true;
  }

  // A MAT statement's new dimensions: at most the elements the array was created with.
  // The elements are left as they are, or zero (empty) when their number changes; the
  // MAT statement then writes those it works on.
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
    if (size != size_)
      std::fill(data_.begin(), data_.begin() + static_cast<std::ptrdiff_t>(size), T());
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
  // MAT statements work on the elements from subscript mat_first() up in every dimension.
  int mat_first() const {
    return std::max(base_, mat_first_subscript());
  }
  int mat_extent(int dim) const {
    return std::max(upper_[static_cast<std::size_t>(dim)] - mat_first() + 1, 0);
  }
  std::vector<int> mat_extents() const {
    std::vector<int> out;
    for (int d = 0; d < rank(); ++d)
      out.push_back(mat_extent(d));
    return out;
  }
  // The storage positions of the MAT elements, row by row.
  std::vector<std::size_t> mat_cells() const {
    const int skip = mat_first() - base_;
    std::vector<std::size_t> cells;
    if (skip == 0) {
      for (std::size_t k = 0; k < size_; ++k)
        cells.push_back(k);
      return cells;
    }
    const int r = rank();
    for (int d = 0; d < r; ++d)
      if (extent(d) <= skip)
        return cells;
    std::vector<int> index(static_cast<std::size_t>(r), skip);  // row-major, last fastest
    for (;;) {
      std::size_t flat = 0;
      for (int d = 0; d < r; ++d)
        flat = flat * static_cast<std::size_t>(extent(d)) +
               static_cast<std::size_t>(index[static_cast<std::size_t>(d)]);
      cells.push_back(flat);
      int d = r - 1;
      while (d >= 0 && ++index[static_cast<std::size_t>(d)] == extent(d))
        index[static_cast<std::size_t>(d--)] = skip;
      if (d < 0)
        return cells;
    }
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
    if (erased_)  // used after ERASE: made again with the implicit bounds, as GW-BASIC does
      allocate(std::vector<double>(upper_.size(), IMPLICIT_UPPER_BOUND));
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
  bool erased_ = false;
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
  for (int e : a.mat_extents())
    text += (text.empty() ? "" : "x") + std::to_string(e);
  return text;
}

// The MAT elements as doubles, row by row.
template <class T>
std::vector<double> numbers_of(const Array<T>& a) {
  std::vector<double> values;
  for (std::size_t k : a.mat_cells())
    values.push_back(static_cast<double>(a.data()[k]));
  return values;
}

// The target takes the shape `extents` (at most its DIM's elements) and the values.
template <class T, class V>
void store_values(Array<T>& target, const std::vector<int>& extents, const std::vector<V>& values) {
  std::vector<double> upper;
  for (int e : extents)
    upper.push_back(target.mat_first() + e - 1.0);
  target.reshape(upper);
  const std::vector<std::size_t> cells = target.mat_cells();
  for (std::size_t k = 0; k < values.size() && k < cells.size(); ++k) {
    if constexpr (std::is_same_v<T, std::string>) {
      target.data()[cells[k]] = values[k];
    } else {
      target.data()[cells[k]] = element_from<T>(values[k]);
    }
  }
}

// MAT READ: every MAT element, row by row, from DATA.
template <class T>
void mat_read(Array<T>& target, DataPool& pool) {
  for (std::size_t k : target.mat_cells()) {
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
  const std::vector<std::size_t> cells = target.mat_cells();
  const std::size_t size = cells.size();
  const std::size_t width =
      target.rank() == 2 ? static_cast<std::size_t>(target.mat_extent(1)) : size;
  const std::vector<Kind> kinds(width, text ? STRING : NUMBER);
  for (std::size_t start = 0; start < size; start += width > 0 ? width : 1) {
    const std::vector<Value> values = con.input(kinds);
    for (std::size_t k = 0; k < width && start + k < size; ++k) {
      if constexpr (text) {
        target.data()[cells[start + k]] = values[k].text;
      } else {
        target.data()[cells[start + k]] = element_from<T>(values[k].number);
      }
    }
  }
}

// MAT PRINT of one array: each row on its own line (a vector: one row), zoned after `,`
// (the default) or packed after `;`.  A blank line goes between two arrays
// (con.newline() before).
template <class T>
void mat_print(Console& con, const Array<T>& source, bool zoned) {
  if (con.column() != 0)
    con.newline();
  const std::vector<std::size_t> cells = source.mat_cells();
  const bool matrix = source.rank() >= 2;  // a higher rank: rows of its second extent too
  const std::size_t width = matrix ? static_cast<std::size_t>(source.mat_extent(1)) : cells.size();
  std::size_t rows = 1;
  if (matrix && width > 0)
    rows = cells.size() / width;
  else if (matrix)
    rows = source.rank() == 2 ? static_cast<std::size_t>(source.mat_extent(0)) : 0;
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < width; ++j) {
      if (j > 0 && zoned)
        con.next_zone();
      const std::size_t k = cells[i * width + j];
      if constexpr (std::is_same_v<T, std::string>) {
        con.write_string(source.data()[k]);
      } else {
        con.write_number(static_cast<double>(source.data()[k]));
      }
    }
    con.newline();
  }
}

// MAT A = ZER, CON (after a.reshape() for new dimensions).
template <class T>
void mat_fill(Array<T>& target, double value) {
  for (std::size_t k : target.mat_cells())
    target.data()[k] = element_from<T>(value);
}

// MAT A = IDN.
template <class T>
void mat_identity(Array<T>& target) {
  if (target.rank() != 2)
    throw Fault(NEEDS_MATRIX, "IDN (" + target.name() + ")");
  const int rows = target.mat_extent(0), cols = target.mat_extent(1);
  if (rows != cols)
    throw Fault(NOT_SQUARE, "IDN (" + target.name() + " is " + shape_text(target) + ")");
  const std::vector<std::size_t> cells = target.mat_cells();
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      target.data()[cells[static_cast<std::size_t>(i * cols + j)]] =
          element_from<T>(i == j ? 1.0 : 0.0);
}

// CHANGE A$ TO A (Dartmouth BASIC): A(0) = the length of the string, A(1), A(2)... the
// codes of its characters (stored in this order: an element out of range stops there).
template <class T>
void change_to_codes(Array<T>& array, const std::string& text) {
  std::vector<double> values{0.0};
  for (std::size_t i = 0; i < text.size(); i = next_code_point(text, i))
    values.push_back(static_cast<double>(first_code_point(text.substr(i, next_code_point(text, i) - i))));
  values[0] = static_cast<double>(values.size() - 1);
  for (std::size_t i = 0; i < values.size(); ++i)
    array(static_cast<double>(i)) = element_from<T>(values[i]);
}

// CHANGE A TO A$: the string of A(0) characters whose codes are A(1), A(2)..., the count
// and the codes under CHR$'s rules.
template <class T>
std::string change_to_string(Array<T>& array) {
  const std::size_t count = string_count(static_cast<double>(array(0.0)));
  std::string text;
  for (std::size_t i = 1; i <= count; ++i)
    text += CHRS(static_cast<double>(array(static_cast<double>(i))));
  return text;
}

// MAT A = B.
template <class T, class U>
void mat_copy(Array<T>& target, const Array<U>& source) {
  if (static_cast<const void*>(&target) == static_cast<const void*>(&source))
    return;
  if constexpr (std::is_same_v<T, std::string>) {
    std::vector<std::string> values;
    for (std::size_t k : source.mat_cells())
      values.push_back(source.data()[k]);
    store_values(target, source.mat_extents(), values);
  } else {
    store_values(target, source.mat_extents(), numbers_of(source));
  }
}

// MAT A = (k) * B.
template <class T, class U>
void mat_scale(Array<T>& target, double factor, const Array<U>& source) {
  std::vector<double> values = numbers_of(source);
  for (double& x : values)
    x = factor * x;
  store_values(target, source.mat_extents(), values);
}

template <class U, class V>
Fault shape_mismatch(const Array<U>& left, const Array<V>& right) {
  return Fault(SHAPE_MISMATCH, "(" + left.name() + " is " + shape_text(left) + ", " + right.name() +
                                   " is " + shape_text(right) + ")");
}

// MAT A = B + C and MAT A = B - C.
template <class T, class U, class V>
void mat_add(Array<T>& target, const Array<U>& left, const Array<V>& right, double sign = 1.0) {
  if (left.mat_extents() != right.mat_extents())
    throw shape_mismatch(left, right);
  const std::vector<double> a = numbers_of(left), b = numbers_of(right);
  std::vector<double> values(a.size());
  for (std::size_t k = 0; k < a.size(); ++k)
    values[k] = sign > 0 ? a[k] + b[k] : a[k] - b[k];
  store_values(target, left.mat_extents(), values);
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
  const std::size_t rows = left.rank() == 2 ? static_cast<std::size_t>(left.mat_extent(0)) : 1;
  const std::size_t inner = static_cast<std::size_t>(left.mat_extent(left.rank() - 1));
  const std::size_t right_rows = static_cast<std::size_t>(right.mat_extent(0));
  const std::size_t cols = right.rank() == 2 ? static_cast<std::size_t>(right.mat_extent(1)) : 1;
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
  const int rows = source.mat_extent(0), cols = source.mat_extent(1);
  const std::vector<double> m = numbers_of(source);
  std::vector<double> values;
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      values.push_back(m[static_cast<std::size_t>(i * cols + j)]);
  store_values(target, {cols, rows}, values);
}

// The determinant of the matrix the last MAT INV inverted (Dartmouth BASIC's DET): 0
// before any, and after an INV of a singular matrix.
inline double& last_determinant() {
  static double value = 0.0;
  return value;
}

inline double DET() { return last_determinant(); }

// MAT A = INV(B): Gauss-Jordan elimination with partial pivoting; the product of the
// pivots, negated by each row swap, is the determinant (DET).
template <class T, class U>
void mat_inverse(Array<T>& target, const Array<U>& source) {
  if (source.rank() != 2)
    throw Fault(NEEDS_MATRIX, "INV(" + source.name() + ")");
  const std::size_t n = static_cast<std::size_t>(source.mat_extent(0));
  if (source.mat_extent(0) != source.mat_extent(1))
    throw Fault(NOT_SQUARE, "INV(" + source.name() + " is " + shape_text(source) + ")");
  const std::vector<double> m = numbers_of(source);
  std::vector<std::vector<double>> a(n, std::vector<double>(2 * n, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j)
      a[i][j] = m[i * n + j];
    a[i][n + i] = 1.0;
  }
  double determinant = 1.0;
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;  // the first row with the largest magnitude, as Python's max
    for (std::size_t r = col + 1; r < n; ++r)
      if (std::fabs(a[r][col]) > std::fabs(a[pivot][col]))
        pivot = r;
    if (a[pivot][col] == 0.0) {
      last_determinant() = 0.0;
      throw Fault(SINGULAR, "INV(" + source.name() + ")");
    }
    if (pivot != col)
      determinant = -determinant;
    std::swap(a[col], a[pivot]);
    const double p = a[col][col];
    determinant *= p;
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
  last_determinant() = determinant;
  store_values(target, {static_cast<int>(n), static_cast<int>(n)}, values);
}

// The MAT statements as the generated code calls them, with the BASIC word or operator
// (the Python runtime's interface, runtime/arrays.py): MAT A = ZER, CON or IDN (new
// dimensions first when given), MAT A = TRN(B) or INV(B), MAT A = B + C, B - C or B * C.
template <class T>
void mat_fill(Array<T>& target, std::string_view name, const std::vector<double>& dims = {}) {
  if (!dims.empty())
    target.reshape(dims);
  if (name == "IDN")
    mat_identity(target);
  else
    mat_fill(target, name == "CON" ? 1.0 : 0.0);
}

template <class T, class U>
void mat_function(Array<T>& target, std::string_view name, const Array<U>& source) {
  if (name == "TRN")
    mat_transpose(target, source);
  else
    mat_inverse(target, source);
}

template <class T, class U, class V>
void mat_binary(Array<T>& target, std::string_view op, const Array<U>& left,
                const Array<V>& right) {
  if (op == "+")
    mat_add(target, left, right);
  else if (op == "-")
    mat_sub(target, left, right);
  else
    mat_mul(target, left, right);
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
// (ILLEGAL_FUNCTION_CALL and OVERFLOW_ERROR are stringfns.py's, above.)

// ON e GOTO / GOSUB outside strict mode: the 1-based target, or 0 to go on with the next
// statement (an index of 0 or past the targets); the index is rounded half away from
// zero, below 0 or above 255 is "Illegal function call", beyond 16 bits "Overflow".
// `strict`: ECMA-55's rule (on_index).
inline int on_choice(double value, int count, bool strict = false) {
  if (strict)
    return on_index(value, count);
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

// Microsoft BASIC: an error that ends the program, as GW-BASIC shows it: the line being
// printed ends, then "Out of DATA in 20" (no "in" for a line without a number).  A
// condition with no GW-BASIC number shows nothing.
// Microsoft BASIC: the "Overflow" GW-BASIC shows for each numeric constant beyond its
// range as it loads the program, before the program's own output.
inline void report_load_overflows(Console& con, int count) {
  for (int i = 0; i < count; ++i)
    con.print(gw_message(6)).newline();
}

inline void report_error(Console& con, const Fault& fault, int line) {
  if (fault.code() < 0)
    return;
  const std::string message = gw_message(fault.code());
  if (fault.line >= 0)
    line = fault.line;
  con.finish();
  con.print(line > 0 ? message + " in " + std::to_string(line) : message).newline();
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
