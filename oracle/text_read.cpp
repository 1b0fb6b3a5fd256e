// oracle/text_read.cpp: lexer and recursive-descent parser of the text syntax
// (SPEC §12; version 2: §23.1). Binary expressions are parsed by precedence
// climbing over the operator table of ops.def; nesting is bounded, so no input
// exhausts the stack. The version is read first (the `concord N;` header) and picks
// the keyword table the rest is lexed with (§14.2: version 2's words are ordinary
// names in version 1).
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>

#include "error.hpp"
#include "limits.hpp"
#include "text.hpp"

namespace concord {

static const char* const kKeywords[] = {
    "kind",  "state",     "init",      "on",        "process",   "supervisor",  "given",       "send",        "to",
    "spawn", "under",     "stop",      "fail",      "if",        "else",        "repeat",      "self",        "int",
    "addr",  "intensity", "permanent", "transient", "temporary", "one_for_one", "one_for_all", "rest_for_one"};

// Version 2 reserves these too (§23.1).
static const char* const kKeywords2[] = {"concord",
                                         "call",
                                         "reply",
                                         "link",
                                         "unlink",
                                         "monitor",
                                         "demonitor",
                                         "trap_exit",
                                         "exit",
                                         "down",
                                         "kill",
                                         "ignore",
                                         "reason",
                                         "normal",
                                         "shutdown",
                                         "killed",
                                         "noproc",
                                         "significant",
                                         "auto_shutdown",
                                         "never",
                                         "any_significant",
                                         "all_significant",
                                         "terminate_child",
                                         "restart_child",
                                         "delete_child"};

bool is_keyword(const std::string& word, int version) {
  for (const char* k : kKeywords)
    if (word == k) return true;
  if (version >= 2)
    for (const char* k : kKeywords2)
      if (word == k) return true;
  return false;
}

namespace {

enum class Tok { Ident, Int, Addr, Punct, End };

struct Token {
  Tok kind = Tok::End;
  std::string text;   // identifier, punctuation, addr name (without @), literal digits
  int64_t value = 0;  // Int
  int line = 1, col = 1;
  std::string where() const { return std::to_string(line) + ":" + std::to_string(col); }
};

// Longest first, so "<<" wins over "<".
const char* const kPuncts[] = {"==", "!=", "<=", ">=", "<<", ">>", "(", ")", "{", "}", ",", ";", ":",
                               "=",  "<",  ">",  "+",  "-",  "*",  "/", "%", "&", "|", "^", "!", "~"};

class Lexer {
 public:
  Lexer(const std::string& src, int version) : s_(src), version_(version) {}

  // The tokens of the text, or its first `limit` ones.
  std::vector<Token> run(size_t limit = SIZE_MAX) {
    std::vector<Token> out;
    for (;;) {
      if (out.size() == limit) return out;
      skip_space();
      Token t;
      t.line = line_;
      t.col = col_;
      if (i_ >= s_.size()) {
        out.push_back(t);
        return out;
      }
      char c = s_[i_];
      bool operand_before = !out.empty() && ends_operand(out.back());
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        t.kind = Tok::Ident;
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) t.text += next();
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '-' && !operand_before && i_ + 1 < s_.size() &&
                  std::isdigit(static_cast<unsigned char>(s_[i_ + 1])))) {
        lex_int(t);
      } else if (c == '@') {
        next();
        t.kind = Tok::Addr;
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) t.text += next();
        if (i_ + 1 < s_.size() && s_[i_] == '-' && std::isdigit(static_cast<unsigned char>(s_[i_ + 1]))) {
          t.text += next();
          while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) t.text += next();
        }
        if (t.text.empty()) throw InputError(t.where(), "expected a process name after '@'");
      } else {
        t.kind = Tok::Punct;
        for (const char* p : kPuncts)
          if (s_.compare(i_, std::strlen(p), p) == 0) {
            t.text = p;
            break;
          }
        if (t.text.empty()) {
          std::string shown = std::isprint(static_cast<unsigned char>(c))
                                  ? std::string(1, c)
                                  : "byte " + std::to_string(static_cast<unsigned char>(c));
          throw InputError(t.where(), "unexpected character '" + shown + "'");
        }
        for (size_t k = 0; k < t.text.size(); k++) next();
      }
      out.push_back(std::move(t));
    }
  }

 private:
  bool ends_operand(const Token& t) const {
    if (t.kind == Tok::Int || t.kind == Tok::Addr) return true;
    if (t.kind == Tok::Punct) return t.text == ")";
    if (t.kind == Tok::Ident) return t.text == "self" || is_reason_word(t.text) || !is_keyword(t.text, version_);
    return false;
  }

  void lex_int(Token& t) {
    t.kind = Tok::Int;
    bool negative = s_[i_] == '-';
    if (negative) t.text += next();
    uint64_t mag = 0;
    const uint64_t limit = negative ? (uint64_t{1} << 63) : (uint64_t{1} << 63) - 1;
    bool overflow = false;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) {
      unsigned d = static_cast<unsigned>(s_[i_] - '0');
      if (mag > (limit - d) / 10)
        overflow = true;
      else
        mag = mag * 10 + d;
      t.text += next();
    }
    if (i_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))
      throw InputError(t.where(), "malformed number '" + t.text + s_[i_] + "'");
    if (overflow) throw InputError(t.where(), "integer literal " + t.text + " is out of the int64 range");
    t.value = negative ? static_cast<int64_t>(~mag + 1) : static_cast<int64_t>(mag);
  }

  void skip_space() {
    while (i_ < s_.size()) {
      if (s_[i_] == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') next();
      } else if (std::isspace(static_cast<unsigned char>(s_[i_]))) {
        next();
      } else {
        return;
      }
    }
  }

  char next() {
    char c = s_[i_++];
    if (c == '\n') {
      line_++;
      col_ = 1;
    } else {
      col_++;
    }
    return c;
  }

  const std::string& s_;
  int version_;
  size_t i_ = 0;
  int line_ = 1, col_ = 1;
};

// The version a program's header declares (§14.1): `concord N;` before anything
// else, 1 without a header. Lexed with version 1's words: the header is read first.
int header_version(const std::vector<Token>& t) {
  if (t.size() < 3 || t[0].kind != Tok::Ident || t[0].text != "concord") return 1;
  if (t[1].kind != Tok::Int) throw InputError(t[1].where(), "expected the version after 'concord' (1 or 2)");
  if (t[1].value != 1 && t[1].value != 2)
    throw InputError(t[1].where(), "unsupported version " + t[1].text + " (this concord reads versions 1 and 2)");
  if (t[2].kind != Tok::Punct || t[2].text != ";") throw InputError(t[2].where(), "expected ';' after the version");
  return static_cast<int>(t[1].value);
}

class Parser {
 public:
  Parser(std::vector<Token> toks, int version) : t_(std::move(toks)), version_(version) {}

  Program program() {
    Program p;
    p.version = version_;
    if (is("concord") && peek(1).kind == Tok::Int) k_ += 3;  // the header (header_version checked it)
    while (!at_end()) {
      if (is("kind"))
        p.kinds.push_back(kind());
      else if (is("process"))
        p.system.push_back(process());
      else if (is("supervisor"))
        p.system.push_back(supervisor(1));  // a root is depth 1, as in JSON
      else if (is("given"))
        p.given.push_back(given());
      else
        fail_here("expected 'kind', 'process', 'supervisor' or 'given'");
    }
    return p;
  }

 private:
  // --- tokens -------------------------------------------------------------
  const Token& peek(size_t ahead = 0) const { return t_[std::min(k_ + ahead, t_.size() - 1)]; }
  bool at_end() const { return peek().kind == Tok::End; }
  bool is(const char* word) const {
    const Token& t = peek();
    return (t.kind == Tok::Ident || t.kind == Tok::Punct) && t.text == word;
  }
  const Token& advance() { return t_[k_ < t_.size() - 1 ? k_++ : k_]; }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Tok::End: return "end of input";
      case Tok::Int: return "number " + t.text;
      case Tok::Addr: return "'@" + t.text + "'";
      case Tok::Ident: return (is_keyword(t.text, 2) ? "keyword '" : "'") + t.text + "'";
      case Tok::Punct: return "'" + t.text + "'";
    }
    return "?";
  }

  [[noreturn]] void fail_here(const std::string& what) {
    throw InputError(peek().where(), what + ", got " + describe(peek()));
  }

  void expect(const char* word) {
    if (!is(word)) fail_here(std::string("expected '") + word + "'");
    advance();
  }

  // A name (not a keyword); forms are checked by check().
  std::string name(const char* what) {
    const Token& t = peek();
    if (t.kind != Tok::Ident || is_keyword(t.text, version_)) fail_here(std::string("expected ") + what);
    return advance().text;
  }

  bool v2() const { return version_ >= 2; }

  int64_t integer(const char* what) {
    if (peek().kind != Tok::Int) fail_here(std::string("expected ") + what);
    return advance().value;
  }

  // --- declarations ---------------------------------------------------------
  Type type() {
    if (is("int")) {
      advance();
      return Type::Int;
    }
    if (is("addr")) {
      advance();
      return Type::Addr;
    }
    if (v2() && is("reason")) {
      advance();
      return Type::Reason;
    }
    fail_here(v2() ? "expected a type ('int', 'addr' or 'reason')" : "expected a type ('int' or 'addr')");
  }

  std::vector<Param> params() {
    std::vector<Param> out;
    expect("(");
    if (!is(")")) {
      do {
        Param p;
        p.where = peek().where();
        p.name = name("a parameter name");
        expect(":");
        p.type = type();
        out.push_back(std::move(p));
      } while (accept(","));
    }
    expect(")");
    return out;
  }

  bool accept(const char* word) {
    if (!is(word)) return false;
    advance();
    return true;
  }

  Kind kind() {
    Kind k;
    k.where = peek().where();
    expect("kind");
    k.name = name("a kind name");
    k.params = params();
    expect("{");
    bool seen_init = false;
    while (!accept("}")) {
      if (is("state")) {
        Field f;
        f.where = peek().where();
        advance();
        f.name = name("a state field name");
        expect(":");
        f.type = type();
        expect("=");
        f.init = expr(0);
        expect(";");
        k.state.push_back(std::move(f));
      } else if (is("init")) {
        if (seen_init) fail_here("a kind has one 'init' block");
        seen_init = true;
        advance();
        k.init = block(1);
      } else if (is("on")) {
        Handler h;
        h.where = peek().where();
        advance();
        if (v2() && (is("exit") || is("down")))
          h.tag = advance().text;  // the system messages (§16.4)
        else
          h.tag = name("a message tag");
        h.params = params();
        h.body = block(1);
        k.handlers.push_back(std::move(h));
      } else {
        fail_here("expected 'state', 'init', 'on' or '}'");
      }
    }
    return k;
  }

  std::vector<Expr> call_args() {
    std::vector<Expr> out;
    expect("(");
    if (!is(")")) {
      do out.push_back(expr(0));
      while (accept(","));
    }
    expect(")");
    return out;
  }

  ProcessDecl process() {
    ProcessDecl d;
    d.where = peek().where();
    expect("process");
    d.name = name("a process name");
    expect("=");
    d.kind = name("a kind name");
    d.args = call_args();
    expect(";");
    return d;
  }

  Restart restart() {
    for (Restart r : {Restart::Permanent, Restart::Transient, Restart::Temporary})
      if (accept(restart_name(r))) return r;
    fail_here("expected a restart type ('permanent', 'transient' or 'temporary')");
  }

  SupervisorDecl supervisor(int depth) {
    if (depth > kMaxDepth) fail_here("supervisors nested deeper than " + std::to_string(kMaxDepth));
    SupervisorDecl s;
    s.where = peek().where();
    expect("supervisor");
    s.name = name("a supervisor name");
    bool found = false;
    for (Strategy x : {Strategy::OneForOne, Strategy::OneForAll, Strategy::RestForOne})
      if (!found && accept(strategy_name(x))) {
        s.strategy = x;
        found = true;
      }
    if (!found) fail_here("expected a strategy ('one_for_one', 'one_for_all' or 'rest_for_one')");
    expect("intensity");
    s.intensity = integer("the intensity (a number)");
    if (v2() && accept("auto_shutdown")) {
      bool mode = false;
      for (AutoShutdown a : {AutoShutdown::Never, AutoShutdown::AnySignificant, AutoShutdown::AllSignificant})
        if (!mode && accept(auto_shutdown_name(a))) {
          s.auto_shutdown = a;
          mode = true;
        }
      if (!mode) fail_here("expected an auto_shutdown mode ('never', 'any_significant' or 'all_significant')");
    }
    expect("{");
    while (!accept("}")) {
      Child c;
      c.restart = restart();
      c.significant = v2() && accept("significant");
      if (is("process"))
        c.decl = process();
      else if (is("supervisor"))
        c.decl = supervisor(depth + 1);
      else
        fail_here("expected 'process' or 'supervisor'");
      s.children.push_back(std::move(c));
    }
    return s;
  }

  Given given() {
    Given g;
    g.where = peek().where();
    expect("given");
    g.tag = name("a message tag");
    g.args = call_args();
    expect("to");
    if (peek().kind != Tok::Addr) fail_here("expected the receiver as '@name'");
    g.to = advance().text;
    expect(";");
    return g;
  }

  // --- statements -------------------------------------------------------------
  // The statements of a block are at `depth`; an empty block is fine at any depth
  // (check() bounds statements, not blocks), so stmt() checks the depth.
  std::vector<Stmt> block(int depth) {
    std::vector<Stmt> out;
    expect("{");
    while (!accept("}")) out.push_back(stmt(depth));
    return out;
  }

  Stmt spawn(std::string bind, const std::string& where) {
    Stmt s;
    s.kind = StmtKind::Spawn;
    s.where = where;
    s.bind = std::move(bind);
    expect("spawn");
    s.name = name("a kind name");
    s.exprs = call_args();
    if (accept("under")) {
      s.under = name("a supervisor name");
      s.restart = restart();
      s.significant = v2() && accept("significant");
    }
    expect(";");
    return s;
  }

  // Version 2: `[f =] call t(a...) to e;` (§18.1).
  Stmt call(std::string bind, const std::string& where) {
    Stmt s;
    s.kind = StmtKind::Call;
    s.where = where;
    s.bind = std::move(bind);
    expect("call");
    s.name = name("a message tag");
    std::vector<Expr> args = call_args();
    expect("to");
    s.exprs.push_back(expr(0));
    for (Expr& e : args) s.exprs.push_back(std::move(e));
    expect(";");
    return s;
  }

  bool at_api(ApiOp& op) const {
    for (ApiOp x : {ApiOp::TerminateChild, ApiOp::RestartChild, ApiOp::DeleteChild})
      if (is(api_name(x))) {
        op = x;
        return true;
      }
    return false;
  }

  // Version 2: `[f =] terminate_child|restart_child|delete_child(s, c);` (§20).
  Stmt api(ApiOp op, std::string bind, const std::string& where) {
    Stmt s;
    s.kind = StmtKind::Api;
    s.api = op;
    s.where = where;
    s.bind = std::move(bind);
    advance();
    expect("(");
    s.under = name("a supervisor name");
    expect(",");
    if (accept("supervisor"))
      s.name = name("a supervisor name");
    else
      s.exprs.push_back(expr(0));
    expect(")");
    expect(";");
    return s;
  }

  // `( e )` after link, unlink, monitor, demonitor, trap_exit.
  Stmt one_operand(StmtKind kind, const std::string& where) {
    Stmt s;
    s.kind = kind;
    s.where = where;
    advance();
    expect("(");
    s.exprs.push_back(expr(0));
    expect(")");
    expect(";");
    return s;
  }

  // The statements of version 2 that start with a keyword (§23.1); false if none does.
  bool stmt2(Stmt& s) {
    ApiOp op;
    if (accept("stop")) {
      s.kind = StmtKind::Stop;
      if (!accept(";")) {
        Expr e = expr(0);
        if (!(e.kind == ExprKind::Reason && e.name == "normal")) s.exprs.push_back(std::move(e));  // stop normal = stop
        expect(";");
      }
    } else if (accept("ignore")) {
      s.kind = StmtKind::Ignore;
      expect(";");
    } else if (is("link")) {
      s = one_operand(StmtKind::Link, s.where);
    } else if (is("unlink")) {
      s = one_operand(StmtKind::Unlink, s.where);
    } else if (is("monitor")) {
      s = one_operand(StmtKind::Monitor, s.where);
    } else if (is("demonitor")) {
      s = one_operand(StmtKind::Demonitor, s.where);
    } else if (is("trap_exit")) {
      s = one_operand(StmtKind::TrapExit, s.where);
    } else if (accept("exit")) {
      s.kind = StmtKind::Exit;
      expect("(");
      s.exprs.push_back(expr(0));
      expect(",");
      if (accept("kill"))
        s.kill = true;
      else
        s.exprs.push_back(expr(0));
      expect(")");
      expect(";");
    } else if (is("call")) {
      s = call("", s.where);
    } else if (accept("reply")) {
      s.kind = StmtKind::Reply;
      s.exprs.push_back(expr(0));
      expect(";");
    } else if (at_api(op)) {
      s = api(op, "", s.where);
    } else {
      return false;
    }
    return true;
  }

  Stmt if_stmt(int depth) {
    Stmt s;
    s.kind = StmtKind::If;
    s.where = peek().where();
    expect("if");
    s.exprs.push_back(expr(0));
    s.body = block(depth + 1);
    if (accept("else")) {
      if (is("if")) {
        if (depth + 1 > kMaxDepth) fail_here("statements nested deeper than " + std::to_string(kMaxDepth));
        s.orelse.push_back(if_stmt(depth + 1));
      } else {
        s.orelse = block(depth + 1);
      }
    }
    return s;
  }

  Stmt stmt(int depth) {
    if (depth > kMaxDepth) fail_here("statements nested deeper than " + std::to_string(kMaxDepth));
    Stmt s;
    s.where = peek().where();
    if (is("if")) return if_stmt(depth);
    if (is("spawn")) return spawn("", s.where);
    if (v2() && stmt2(s)) return s;
    if (accept("repeat")) {
      s.kind = StmtKind::Repeat;
      s.count = integer("the repeat count (a number)");
      s.body = block(depth + 1);
    } else if (accept("send")) {
      s.kind = StmtKind::Send;
      s.name = name("a message tag");
      std::vector<Expr> args = call_args();
      expect("to");
      s.exprs.push_back(expr(0));
      for (Expr& e : args) s.exprs.push_back(std::move(e));
      expect(";");
    } else if (accept("stop")) {
      s.kind = StmtKind::Stop;
      expect(";");
    } else if (accept("fail")) {
      s.kind = StmtKind::Fail;
      s.name = name("a failure code");
      expect(";");
    } else if (peek().kind == Tok::Ident && !is_keyword(peek().text, version_)) {
      std::string target = advance().text;
      expect("=");
      if (is("spawn")) return spawn(target, s.where);
      ApiOp op;
      if (v2() && is("call")) return call(target, s.where);
      if (v2() && at_api(op)) return api(op, target, s.where);
      s.kind = StmtKind::Assign;
      s.name = target;
      s.exprs.push_back(expr(0));
      expect(";");
    } else {
      fail_here("expected a statement");
    }
    return s;
  }

  // --- expressions ------------------------------------------------------------
  // The binary operator at the cursor, if any.
  bool binary_op(Op& out) const {
    const Token& t = peek();
    if (t.kind != Tok::Punct) return false;
    for (int i = 0;; i++) {
      Op op = static_cast<Op>(i);
      if (i > static_cast<int>(Op::BOr)) return false;
      if (!is_unary(op) && t.text == op_info(op).text) {
        out = op;
        return true;
      }
    }
  }

  // Precedence climbing: parses operators binding at least as tight as min_prec.
  // `height` tracks the tree's height, so a long chain like a+b+c+... (built by
  // the loop, not by recursion) is bounded too.
  Expr expr(int min_prec) {
    int height = 0;
    return expr(min_prec, height);
  }

  Expr expr(int min_prec, int& height) {
    Expr lhs = unary(height);
    Op op;
    while (binary_op(op) && op_info(op).prec > min_prec) {
      Expr e;
      e.where = peek().where();
      advance();
      e.kind = ExprKind::Binary;
      e.op = op;
      e.args.push_back(std::move(lhs));
      int rhs_height = 0;
      e.args.push_back(expr(op_info(op).prec, rhs_height));
      height = std::max(height, rhs_height) + 1;  // a leaf has height 0: the tree has height + 1 levels
      if (height >= kMaxDepth) fail_here("expression nested deeper than " + std::to_string(kMaxDepth));
      lhs = std::move(e);
    }
    return lhs;
  }

  Expr unary(int& height) {
    Expr e;
    e.where = peek().where();
    const Token& t = peek();
    if (t.kind == Tok::Punct && (t.text == "-" || t.text == "!" || t.text == "~")) {
      advance();
      e.kind = ExprKind::Unary;
      e.op = t.text == "-" ? Op::Neg : t.text == "!" ? Op::Not : Op::BNot;
      if (++parens_ > kMaxTextNesting) fail_nesting();
      e.args.push_back(unary(height));
      parens_--;
      if (++height >= kMaxDepth) fail_here("expression nested deeper than " + std::to_string(kMaxDepth));
      return e;
    }
    height = 0;
    if (t.kind == Tok::Int) {
      e.kind = ExprKind::Int;
      e.value = advance().value;
    } else if (t.kind == Tok::Addr) {
      e.kind = ExprKind::Addr;
      e.name = advance().text;
    } else if (is("self")) {
      advance();
      e.kind = ExprKind::Self;
    } else if (v2() && t.kind == Tok::Ident &&
               (is_reason_word(t.text) || std::isupper(static_cast<unsigned char>(t.text[0])))) {
      e.kind = ExprKind::Reason;  // a reason word or a code (§23.1); check() checks the code's form
      e.name = advance().text;
    } else if (t.kind == Tok::Ident && !is_keyword(t.text, version_)) {
      e.kind = ExprKind::Var;
      e.name = advance().text;
    } else if (accept("(")) {
      if (++parens_ > kMaxTextNesting) fail_nesting();
      e = expr(0, height);  // parentheses are not a node: they do not count (§4.13)
      parens_--;
      expect(")");
    } else {
      fail_here("expected an expression");
    }
    return e;
  }

  [[noreturn]] void fail_nesting() {
    fail_here("parentheses and unary operators nested deeper than " + std::to_string(kMaxTextNesting) +
              " (a limit of the text syntax, SPEC §12.1)");
  }

  std::vector<Token> t_;
  int version_;
  size_t k_ = 0;
  int parens_ = 0;  // open parentheses and unary operators: each one recurses, so bounded
};

}  // namespace

// The header's three tokens read alike in both versions; the rest is lexed by the
// version they name (§14.1): whether `-` after `reply` starts a literal depends on it.
Program parse_program(const std::string& text) {
  int version = header_version(Lexer(text, 1).run(3));
  return Parser(Lexer(text, version).run(), version).program();
}

}  // namespace concord
