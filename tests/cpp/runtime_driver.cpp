// Test driver for transpiler/cpp_runtime/b2t_runtime.h: answers one request per input line, so
// that tests/test_cpp_runtime*.py can compare thousands of cases with the Python runtime
// through one process.
//
// Values on the wire (space-separated tokens): d<16 hex digits> a double's bits,
// s<hex bytes> a UTF-8 string, i<decimal> an integer.  A reply line holds result tokens,
// then `W<hex>` per notice ("severity: message") and `F<hex>` if a Fault ended the
// request.  Requests:
//   format X | trimmed X | parse S | match S POS
//   arith NAME X [Y]          add sub div mul power MOD MAX MIN ABS ATN COS EXP INT LOG SGN SIN
//                             SQR TAN to_integer round_to_int f32 check_string(S)
//   rnd STATE COUNT           COUNT values of RND after reset_rnd(STATE)
//   randomize S|unset COUNT   RANDOMIZE with BASIC2TILE_SEED=S, then COUNT values
//   console OP...             s:S write_string, n:X write_number, z zone, t:X tab,
//                             l newline, f finish; replies with the text written
//   using P FMT ITEM... END   one PRINT USING at precision P (single, double, real):
//                             ITEM d<bits> or s<hex>, END l (newline) or n; replies
//                             with the text written
//   readfile S OPS            INPUT # from a file holding S: OPS letters N (number),
//                             S (string), L (LINE INPUT #), E (EOF), Z (LOF)
//   msreadfile S OPS          the same under Microsoft BASIC (a lone LF is a character)
//   input PROMPT|none KINDS STDIN   one Console::input (KINDS: N and S letters)
//   reply KINDS S             parse_reply; rejected: R<hex of "what|detail">
//   data ITEM... -- OP...     ITEM q:S or u:S; OP n read_number, s read_string, r:I restore
//   array BASE U1 [U2] -- SUB...   allocate, then flat_index of each subscript group
//                                  (groups separated by /); A: allocate faults
// Microsoft BASIC (run under use_dialect(Dialect::ms)):
//   ms NAME X [Y]             sng dbl cint fix single_result single_div double_div int_div
//                             int_mod bit_and bit_or bit_xor bit_eqv bit_imp bit_not
//                             single_power single_power_int double_power and the
//                             functions ATN COS EXP LOG SIN SQR TAN
//   msformat single|double X  format_single / format_double
//   msrnd X KIND ARG...       RANDOMIZE(X, KIND) unless KIND is none, then RND for "-"
//                             and RND(ARG) for a double
//   msconsole OP...           as console, in Microsoft's layout; d:X write_double, p:X spc
//   strfn NAME ARG...         a Microsoft string function (stringfns.py), ARG d or s
//   msstrfn NAME ARG...       the same under Microsoft BASIC (VAL's singles and doubles)
//   msreply KINDS S           parse_ms_reply; rejected: R<hex of "what|detail">
//   msinput PROMPT|none KINDS STDIN Q S   Console::input(prompt, kinds, Q, S) (0 or 1)
//   keys STDIN COUNT PROMPT|none          COUNT INKEY$, then one LINE INPUT (or none)
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "b2t_runtime.h"

namespace {

std::vector<std::string> notices;

void record_notice(const b2t::Notice& notice) {
  notices.push_back(std::string(notice.severity) + ": " + notice.message());
}

std::string hex(const std::string& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::string unhex(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i + 1 < text.size(); i += 2)
    out += static_cast<char>(std::stoi(text.substr(i, 2), nullptr, 16));
  return out;
}

double to_double(const std::string& token) {  // "d" + 16 hex digits
  const std::uint64_t bits = std::stoull(token.substr(1), nullptr, 16);
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

std::string from_double(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof x);
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "d%016llx", static_cast<unsigned long long>(bits));
  return buffer;
}

std::string text_of(const std::string& token) {
  return unhex(token.substr(1));
}  // "s" + hex

std::string str(const std::string& text) {
  return "s" + hex(text);
}

// Text written to a FILE*, read back.
class Capture {
 public:
  Capture() : file_(std::tmpfile()) {}
  ~Capture() {
    std::fclose(file_);
  }
  std::FILE* file() {
    return file_;
  }
  std::string text() {
    std::fflush(file_);
    std::rewind(file_);
    std::string out;
    int c;
    while ((c = std::getc(file_)) != EOF)
      out += static_cast<char>(c);
    return out;
  }

 private:
  std::FILE* file_;
};

std::FILE* file_with(const std::string& text) {
  std::FILE* file = std::tmpfile();
  std::fwrite(text.data(), 1, text.size(), file);
  std::rewind(file);
  return file;
}

std::vector<b2t::Kind> kinds_of(const std::string& letters) {
  std::vector<b2t::Kind> kinds;
  for (char c : letters)
    kinds.push_back(c == 'S' ? b2t::STRING : b2t::NUMBER);
  return kinds;
}

std::string values_of(const std::vector<b2t::Value>& values, const std::vector<b2t::Kind>& kinds) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out += " " + (kinds[i] == b2t::STRING ? str(values[i].text) : from_double(values[i].number));
  return out;
}

double arith(const std::string& name, double x, double y) {
  if (name == "add")
    return b2t::add(x, y);
  if (name == "sub")
    return b2t::sub(x, y);
  if (name == "div")
    return b2t::div(x, y);
  if (name == "mul")
    return b2t::mul(x, y);
  if (name == "power")
    return b2t::power(x, y);
  if (name == "MOD")
    return b2t::MOD(x, y);
  if (name == "MAX")
    return b2t::MAX(x, y);
  if (name == "MIN")
    return b2t::MIN(x, y);
  if (name == "ABS")
    return b2t::ABS(x);
  if (name == "ATN")
    return b2t::ATN(x);
  if (name == "COS")
    return b2t::COS(x);
  if (name == "EXP")
    return b2t::EXP(x);
  if (name == "INT")
    return b2t::INT(x);
  if (name == "LOG")
    return b2t::LOG(x);
  if (name == "SGN")
    return b2t::SGN(x);
  if (name == "SIN")
    return b2t::SIN(x);
  if (name == "SQR")
    return b2t::SQR(x);
  if (name == "TAN")
    return b2t::TAN(x);
  if (name == "to_integer")
    return b2t::to_integer(x);
  if (name == "round_to_int")
    return b2t::round_to_int(x);
  if (name == "f32")
    return b2t::f32(x);
  throw std::runtime_error("unknown arith " + name);
}

double ms_arith(const std::string& name, double x, double y) {
  if (name == "sng")
    return b2t::sng(x);
  if (name == "dbl")
    return b2t::dbl(x);
  if (name == "cint")
    return b2t::cint(x);
  if (name == "fix")
    return b2t::fix(x);
  if (name == "single_result")
    return b2t::single_result(x);
  if (name == "single_div")
    return b2t::single_div(x, y);
  if (name == "double_div")
    return b2t::double_div(x, y);
  if (name == "int_div")
    return b2t::int_div(x, y);
  if (name == "int_mod")
    return b2t::int_mod(x, y);
  if (name == "bit_and")
    return b2t::bit_and(x, y);
  if (name == "bit_or")
    return b2t::bit_or(x, y);
  if (name == "bit_xor")
    return b2t::bit_xor(x, y);
  if (name == "bit_eqv")
    return b2t::bit_eqv(x, y);
  if (name == "bit_imp")
    return b2t::bit_imp(x, y);
  if (name == "bit_not")
    return b2t::bit_not(x);
  if (name == "single_power")
    return b2t::single_power(x, y);
  if (name == "single_power_int")
    return b2t::single_power_int(x, y);
  if (name == "double_power")
    return b2t::double_power(x, y);
  return arith(name, x, y);
}

// Microsoft BASIC for one request, then the extended dialect again.
struct MicrosoftDialect {
  MicrosoftDialect() {
    b2t::use_dialect(b2t::Dialect::ms);
  }
  ~MicrosoftDialect() {
    b2t::use_dialect(b2t::Dialect::extended);
  }
};

std::string console_ops(const std::vector<std::string>& t) {
  Capture capture;
  b2t::Console console(capture.file());
  std::string out;
  try {
    for (std::size_t i = 1; i < t.size(); ++i) {
      const std::string& item = t[i];
      const std::string arg = item.size() > 2 ? item.substr(2) : "";
      switch (item[0]) {
        case 's':
          console.write_string(text_of(arg));
          break;
        case 'n':
          console.write_number(to_double(arg));
          break;
        case 'd':
          console.write_double(to_double(arg));
          break;
        case 'z':
          console.next_zone();
          break;
        case 't':
          console.tab(to_double(arg));
          break;
        case 'p':
          console.spc(to_double(arg));
          break;
        case 'l':
          console.newline();
          break;
        case 'f':
          console.finish();
          break;
        default:
          throw std::runtime_error("unknown console op " + item);
      }
    }
  } catch (const b2t::Fault& fault) {
    out = " F" + hex(fault.message());
  }
  return str(capture.text()) + " i" + std::to_string(console.column()) + out;
}

// A Microsoft string function on wire tokens (d: number, s: string).
std::string string_function(const std::vector<std::string>& t) {
  const std::string& name = t[1];
  const std::size_t n = t.size() - 2;
  auto num = [&](std::size_t i) { return to_double(t[2 + i]); };
  auto text = [&](std::size_t i) { return text_of(t[2 + i]); };
  auto is_text = [&](std::size_t i) { return t[2 + i][0] == 's'; };
  if (name == "concat")
    return str(b2t::concat(text(0), text(1)));
  if (name == "LEFTS")
    return str(b2t::LEFTS(text(0), num(1)));
  if (name == "RIGHTS")
    return str(b2t::RIGHTS(text(0), num(1)));
  if (name == "MIDS")
    return str(n == 2 ? b2t::MIDS(text(0), num(1)) : b2t::MIDS(text(0), num(1), num(2)));
  if (name == "LEN")
    return from_double(b2t::LEN(text(0)));
  if (name == "ASC")
    return from_double(b2t::ASC(text(0)));
  if (name == "VAL")
    return from_double(b2t::VAL(text(0)));
  if (name == "CHRS")
    return str(b2t::CHRS(num(0)));
  if (name == "SPACES")
    return str(b2t::SPACES(num(0)));
  if (name == "STRINGS")
    return str(is_text(1) ? b2t::STRINGS(num(0), text(1)) : b2t::STRINGS(num(0), num(1)));
  if (name == "INSTR")
    return from_double(n == 2 ? b2t::INSTR(text(0), text(1))
                              : b2t::INSTR(num(0), text(1), text(2)));
  if (name == "STRS")
    return str(b2t::STRS(num(0)));
  if (name == "HEXS")
    return str(b2t::HEXS(num(0)));
  if (name == "OCTS")
    return str(b2t::OCTS(num(0)));
  if (name == "UCASES")
    return str(b2t::UCASES(text(0)));
  if (name == "LCASES")
    return str(b2t::LCASES(text(0)));
  if (name == "mid_assign")
    return str(n == 3 ? b2t::mid_assign(text(0), num(1), text(2))
                      : b2t::mid_assign(text(0), num(1), num(2), text(3)));
  throw std::runtime_error("unknown string function " + name);
}

std::string run(const std::vector<std::string>& t) {
  const std::string& op = t[0];
  if (op == "ms") {
    MicrosoftDialect ms;
    return from_double(ms_arith(t[1], to_double(t[2]), t.size() > 3 ? to_double(t[3]) : 0.0));
  }
  if (op == "msformat") {
    const double x = to_double(t[2]);
    return str(t[1] == "single" ? b2t::format_single(x) : b2t::format_double(x));
  }
  if (op == "msrnd") {
    MicrosoftDialect ms;
    if (t[2] != "none")
      b2t::RANDOMIZE(to_double(t[1]), t[2]);
    std::string out;
    for (std::size_t i = 3; i < t.size(); ++i)
      out += " " + from_double(t[i] == "-" ? b2t::RND() : b2t::RND(to_double(t[i])));
    return out;
  }
  if (op == "msconsole") {
    MicrosoftDialect ms;
    return console_ops(t);
  }
  if (op == "format")
    return str(b2t::format_number(to_double(t[1])));
  if (op == "trimmed")
    return str(b2t::format_number_trimmed(to_double(t[1])));
  if (op == "parse") {
    double value;
    return b2t::parse_number(text_of(t[1]), &value) ? from_double(value) : "none";
  }
  if (op == "match") {
    const std::size_t end = b2t::match_number(text_of(t[1]), std::stoul(t[2]));
    return end == std::string::npos ? "none" : "i" + std::to_string(end);
  }
  if (op == "arith") {
    if (t[1] == "check_string")
      return str(b2t::check_string(text_of(t[2])));
    return from_double(arith(t[1], to_double(t[2]), t.size() > 3 ? to_double(t[3]) : 0.0));
  }
  if (op == "rnd" || op == "randomize") {
    if (op == "rnd") {
      b2t::reset_rnd(std::stoull(t[1]));
    } else {
      if (t[1] == "unset")
        unsetenv(b2t::SEED_VARIABLE);
      else
        setenv(b2t::SEED_VARIABLE, text_of(t[1]).c_str(), 1);
      b2t::RANDOMIZE();
    }
    std::string out;
    for (int i = std::stoi(t[2]); i > 0; --i)
      out += " " + from_double(b2t::RND());
    return out;
  }
  if (op == "strfn")
    return string_function(t);
  if (op == "msstrfn") {
    MicrosoftDialect ms;
    return string_function(t);
  }
  if (op == "msreply") {
    const auto kinds = kinds_of(t[1]);
    try {
      return values_of(b2t::parse_ms_reply(text_of(t[2]), kinds), kinds);
    } catch (const b2t::ReplyRejected& rejected) {
      return "R" + hex(rejected.what + "|" + rejected.detail);
    }
  }
  if (op == "msinput") {
    Capture capture;
    std::FILE* in = file_with(text_of(t[3]));
    MicrosoftDialect ms;
    b2t::Console console(capture.file(), in, false);
    const auto kinds = kinds_of(t[2]);
    std::string out;
    try {
      const auto values = t[1] == "none"
                              ? console.input(kinds, t[4] == "1", t[5] == "1")
                              : console.input(text_of(t[1]), kinds, t[4] == "1", t[5] == "1");
      out = values_of(values, kinds) + " i" + std::to_string(console.column());
    } catch (const b2t::Fault& fault) {
      out = " F" + hex(fault.message());
    }
    std::fclose(in);
    return str(capture.text()) + out;
  }
  if (op == "keys") {
    Capture capture;
    std::FILE* in = file_with(text_of(t[1]));
    MicrosoftDialect ms;
    b2t::Console console(capture.file(), in, false);
    std::string out;
    try {
      for (int i = std::stoi(t[2]); i > 0; --i)
        out += " " + str(b2t::INKEYS());
      // without a prompt: the overload generated code calls
      out += " " + str(t[3] == "none" ? console.line_input() : console.line_input(text_of(t[3])));
    } catch (const b2t::Fault& fault) {
      out += " F" + hex(fault.message());
    }
    std::fclose(in);
    return str(capture.text()) + out;
  }
  if (op == "console")
    return console_ops(t);
  if (op == "using") {
    Capture capture;
    const b2t::UsingPrecision precision =
        t[1] == "single" ? b2t::SINGLE : (t[1] == "double" ? b2t::DOUBLE : b2t::REAL);
    b2t::Console console(capture.file(), stdin, true, precision);
    std::string fault;
    try {
      auto writer = console.print_using(text_of(t[2]));
      for (std::size_t i = 3; i + 1 < t.size(); ++i) {
        if (t[i][0] == 'd')
          writer.item(to_double(t[i]));
        else
          writer.item(text_of(t[i]));
      }
      writer.end(t.back() == "l");
    } catch (const b2t::Fault& exc) {
      fault = " F" + hex(exc.message());
    }
    return str(capture.text()) + fault;
  }
  if (op == "readfile" || op == "msreadfile") {
    std::unique_ptr<MicrosoftDialect> microsoft;
    if (op == "msreadfile")
      microsoft = std::make_unique<MicrosoftDialect>();
    const std::string path = std::string(std::getenv("B2T_TEST_FILE"));
    std::FILE* file = std::fopen(path.c_str(), "wb");
    const std::string content = text_of(t[1]);
    std::fwrite(content.data(), 1, content.size(), file);
    std::fclose(file);
    std::string out;
    try {
      b2t::reset_files();
      b2t::open_file(path, "I", 1);
      for (char c : t.size() > 2 ? t[2] : std::string()) {
        if (c == 'N')
          out += " " + from_double(b2t::file_input(1, {b2t::NUMBER})[0].number);
        else if (c == 'S')
          out += " " + str(b2t::file_input(1, {b2t::STRING})[0].text);
        else if (c == 'L')
          out += " " + str(b2t::file_line(1));
        else if (c == 'E')
          out += " " + from_double(b2t::file_eof(1));
        else
          out += " " + from_double(b2t::file_lof(1));
      }
    } catch (const b2t::Fault& fault) {
      out += " F" + hex(fault.message());
    }
    b2t::close_files();
    return out;
  }
  if (op == "input") {
    Capture capture;
    std::FILE* in = file_with(text_of(t[3]));
    b2t::Console console(capture.file(), in);
    const auto kinds = kinds_of(t[2]);
    std::string out;
    try {
      const auto values = t[1] == "none" ? console.input(kinds)
                                         : console.input(text_of(t[1]), kinds);
      out = values_of(values, kinds);
    } catch (const b2t::Fault& fault) {
      out = " F" + hex(fault.message());
    }
    std::fclose(in);
    return str(capture.text()) + out;
  }
  if (op == "reply") {
    const auto kinds = kinds_of(t[1]);
    try {
      return values_of(b2t::parse_reply(text_of(t[2]), kinds), kinds);
    } catch (const b2t::ReplyRejected& rejected) {
      return "R" + hex(rejected.what + "|" + rejected.detail);
    }
  }
  if (op == "data") {
    std::vector<b2t::DataItem> items;
    std::size_t i = 1;
    for (; t[i] != "--"; ++i)
      items.push_back({text_of(t[i].substr(2)), t[i][0] == 'q'});
    b2t::DataPool pool(items);
    std::string out = "i" + std::to_string(pool.size());
    try {
      for (++i; i < t.size(); ++i) {
        if (t[i] == "n")
          out += " " + from_double(pool.read_number());
        else if (t[i] == "s")
          out += " " + str(pool.read_string());
        else
          pool.restore(std::stoul(t[i].substr(2)));
        out += " i" + std::to_string(pool.position());
      }
    } catch (const b2t::Fault& fault) {
      out += " F" + hex(fault.message());
    }
    return out;
  }
  if (op == "array") {
    std::vector<double> upper;
    std::size_t i = 2;
    for (; t[i] != "--"; ++i)
      upper.push_back(to_double(t[i]));
    b2t::Array<double> array("A", std::stoi(t[1]), static_cast<int>(upper.size()));
    try {
      array.allocate(upper);
    } catch (const b2t::Fault& fault) {
      return "A" + hex(fault.message());
    }
    std::string out = "i" + std::to_string(array.size());
    std::vector<double> group;
    try {
      for (++i; i <= t.size(); ++i) {
        if (i == t.size() || t[i] == "/") {
          if (group.empty())
            continue;
          if (group.size() == 1)
            out += " i" + std::to_string(array.flat_index({group[0]}));
          else
            out += " i" + std::to_string(array.flat_index({group[0], group[1]}));
          group.clear();
        } else {
          group.push_back(to_double(t[i]));
        }
      }
    } catch (const b2t::Fault& fault) {
      out += " F" + hex(fault.message());
    }
    return out;
  }
  throw std::runtime_error("unknown request " + op);
}

}  // namespace

int main() {
  b2t::set_warning_hook(record_notice);
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream words(line);
    std::vector<std::string> tokens;
    for (std::string w; words >> w;)
      tokens.push_back(w);
    notices.clear();
    std::string reply;
    try {
      reply = run(tokens);
    } catch (const b2t::Fault& fault) {
      reply += " F" + hex(fault.message());
    }
    for (const std::string& notice : notices)
      reply += " W" + hex(notice);
    std::cout << reply << "\n" << std::flush;
  }
  return 0;
}
