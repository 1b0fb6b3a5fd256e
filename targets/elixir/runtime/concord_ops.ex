# targets/elixir/runtime/concord_ops.ex: Concord.Ops, the operators of SPEC §5 exact
# on int64 for the elixir target's emitted modules (which `import Concord.Ops`), as
# the erlang target's prelude is for its modules. Elixir integers are unbounded:
# w/1 reduces modulo 2^64 into [-2^63, 2^63-1], and only what can leave the range
# goes through it (band, bor, bxor, bnot, bsr and rem of in-range operands stay in
# range). Kernel.div/2 and rem/2 truncate toward zero, as §5 says.
defmodule Concord.Ops do
  @moduledoc false
  import Bitwise

  @doc "Reduces an integer modulo 2^64 into the signed 64-bit range."
  def w(x), do: (x + 0x8000000000000000 &&& 0xFFFFFFFFFFFFFFFF) - 0x8000000000000000

  def add(a, b), do: w(a + b)
  def sub(a, b), do: w(a - b)
  def mul(a, b), do: w(a * b)
  # MIN div -1 = 2^63 wraps to MIN.
  def dv(_, 0), do: throw({:concord_exit, {:fail, "DIV_ZERO"}})
  def dv(a, b), do: w(div(a, b))
  def rm(_, 0), do: throw({:concord_exit, {:fail, "DIV_ZERO"}})
  def rm(a, b), do: rem(a, b)
  # b &&& 63: the low 6 bits of the pattern, also for b < 0.
  def shl(a, b), do: w(a <<< (b &&& 63))
  def shr(a, b), do: a >>> (b &&& 63)
  def band_(a, b), do: a &&& b
  def bor_(a, b), do: a ||| b
  def bxor_(a, b), do: bxor(a, b)
  def lt(a, b), do: truth(a < b)
  def le(a, b), do: truth(a <= b)
  def gt(a, b), do: truth(a > b)
  def ge(a, b), do: truth(a >= b)
  # ints, or addrs (binaries)
  def eq(a, b), do: truth(a === b)
  def ne(a, b), do: truth(a !== b)
  def neg(a), do: w(-a)
  def not_(0), do: 1
  def not_(_), do: 0
  def bnot_(a), do: bnot(a)

  defp truth(true), do: 1
  defp truth(false), do: 0

  @doc "repeat n {body}: body is a function from state to state."
  def rep(0, s, _), do: s
  def rep(n, s, f), do: rep(n - 1, f.(s), f)
end
