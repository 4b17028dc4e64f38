"""BashGrammar judged against ``bash -n`` (GNU bash): hand-picked edge cases, every
prefix of accepted scripts, and one-character mutations of real scripts."""

from __future__ import annotations

import random
from typing import Any

import pytest
from _support.code_reference import BASH, bash_accepts
from _support.masks import assert_masks_follow_validate
from _support.tokenizers import llama3_tokenizer, smollm2_tokenizer
from hypothesis import given, settings
from hypothesis import strategies as st

from pse.structuring_engine import StructuringEngine
from pse.types.grammar import GrammarError, LarkGrammarStateMachine

try:
    from pse.types.grammar.default_grammars.bash import BashGrammar, BashStateMachine
except GrammarError as exc:  # the native "bash" lexer hook (heredocs) is not in this build
    pytest.skip(f"BashGrammar cannot be built here: {exc}", allow_module_level=True)

pytestmark = pytest.mark.skipif(BASH is None, reason="bash is not installed: `bash -n` judges")

GRAMMAR = BashStateMachine.grammar


CASES = [
    "",
    "\n",
    "# comment",
    "#!/bin/bash\necho hi # x\n",
    "echo a#b",
    "echo #b",
    "echo a;#c",
    "echo a b",
    "echo 'a b' \"c d\"",
    'echo "a"b',
    'echo "a" b',
    "echo $",
    'echo "$"',
    "echo $'a\\'b'",
    'echo $"x"',
    "echo 'a",
    'echo "a',
    "echo ${x",
    'echo ${x:-"a b"}',
    'echo "${x:-"a b"}"',
    'echo ${#x[@]} ${!x} ${x//"a"/b}',
    "echo $(if)",
    'echo $(echo ")")',
    "echo $(case a in a) b;; esac)",
    "echo `echo hi`",
    "echo $((1+(2)))",
    "echo $((x)",
    "((x))",
    "(( 1 + ))",
    "echo <(ls) >(cat)",
    "a=1 b=2",
    "a=1 b",
    "a[1]=x",
    "a+=x",
    "x=(1 2",
    "a=(1 2) cmd",
    "echo a=(1)",
    "local a=(1 2)",
    "declare -a x=(1 2)",
    "x=1 then",
    "then",
    "fi",
    "done",
    "in",
    "{",
    "}",
    "(",
    ")",
    "()",
    "(a)",
    "echo )",
    "echo }",
    "echo {",
    "{ echo a }",
    "{ echo a; }",
    "{a",
    "echo; then",
    "if",
    "function",
    "f()",
    "f() x",
    "a() { :; }",
    "function a { :; }",
    "function a() ( : )",
    "f-g() { :; }",
    "f() { :; } >f",
    "if true; then$x; fi",
    "if a; then; fi",
    "if a; then :; fi",
    "if a\nthen b\nelif c; then d\nelse e\nfi",
    "while :; do done",
    "while read -r line; do :; done < f",
    "until a; do b; done",
    "for x; do :; done",
    "for x do :; done",
    "for x in; do :; done",
    "for x in a b; do echo $x; done",
    "for 1 in a; do :; done",
    "for ((i=0;i<3;i++)); do :; done",
    "for ((i=0;i<3;i++)) { :; }",
    "select x in a b; do :; done",
    "case x in esac",
    "case x in (a) ;; esac",
    "case a in a) echo;; b) ;& c) ;;& esac",
    "case a in a) echo; esac",
    "case a in a|b) x ;; *) y ;; esac",
    "[[ ]]",
    "[[ a",
    "[[ -z $x ]] && echo",
    "[[ a =~ ^(a|b)$ ]]",
    "[[ a == b && ( c || d ) ]]",
    "echo a |",
    "| a",
    "a ;;",
    "; a",
    "a & b",
    "a &",
    "echo &;",
    "echo ; ;",
    "echo ;",
    "! a",
    "! ! a",
    "a | ! b",
    "a && b || c",
    "a &&\nb",
    "a |\nb",
    "a | b |& c",
    "{ :; }&",
    "exec 3>&-",
    "cmd 2>&1 >/dev/null",
    "cmd &>f",
    "cmd &>>f",
    "cmd <<<x",
    "cmd <>f",
    "cmd >|f",
    "{fd}>f",
    ">f",
    "x=1 >f cmd",
    "echo >&2 a",
    "{ echo; } 2>&1",
    "cat <<EOF\nhello $x\nEOF\n",
    "cat <<-'EOF' | grep a\n\thello\n\tEOF\necho done\n",
    "cat <<A <<B\na\nA\nb\nB\n",
    "cat <<\\EOF\nhello $x\nEOF\n",
    "cat <<END_OF_FILE\nhello\nEND_OF_FILE\necho done\n",
    "cat <<-'A_LONG_DELIMITER' | grep a\n\thello\n\tA_LONG_DELIMITER\n",
    "cat <<END_OF_FILE\nEND_OF_FIL\nEND_OF_FILE2\nEND_OF_FILE\n",
    'cat <<"END OF FILE"\nEND\nEND OF FILE\n',
    "cat << 'a\"b' <<\"c'd\"\nx\na\"b\nc'd\n",
    # a body ends only at a whole line equal to its delimiter (or at the end of the script)
    "cat <<A <<BB\nA\nBB\n",
    "cat <<A <<BB\nA\nBB",
    "cat <<A <<BB\nABB\nA\nBB\n",
    "cat <<A\nA",
    "cat <<A\nAx\nA\n",
    "cat <<A; cat <<B\nA\nB",
    "cat <<A <<B\n\n \tx\nA\n\nB\n",
    "cat <<-A <<B\n\tA\n\tB\nB\n",
    # an unquoted delimiter: a backslash-newline in the body joins two lines before the
    # delimiter is looked for; a quoted one reads the body raw
    "cat <<A\nx\\\nA\necho $(\nA\n)\n",
    "cat <<'A'\nx\\\nA\necho $(\nA\n)\n",
    'cat <<"A"\nx\\\nA\necho $(\nA\n)\n',
    "cat <<\\A\nx\\\nA\n",
    "cat <<AB; echo\nA\\\nB\n$x\n",
    "cat <<A\nx\\\\\nA\n",
    "cat <<A\nx\\\\\nA\necho $(\nA\n)\n",
    "cat <<-A\n\t\\\n\tA\necho\n",
    "cat <<A\nA\\\n\nA\n",
    "cat <<A\nA\\\nA\nA\n",
    # `time` is a reserved word where a pipeline starts, with its options -p and --
    "time ls | wc",
    "time -p ls",
    "time -p -- ls",
    "time -- -p",
    "time -px",
    "time ! ls",
    "! time ls",
    "time time ls",
    "time if true; then :; fi",
    "time { ls; }",
    "time ( ls )",
    "time ((1))",
    "time [[ a ]]",
    "time while true; do :; done",
    "time f() { :; }",
    "time x=1 ls",
    "time >f ls",
    "time if",
    "time fi",
    "time then",
    "time }",
    "time &",
    "time && ls",
    "time | ls",
    "time -p if",
    "time -- if",
    "if a; then b; elif time if c; then d; fi; then e; fi",
    "ls | time if",
    "x=1 time if",
    "timex; echo time if",
    # bash reads ";&" and ";;" as operators wherever they are (only a case item takes them)
    "a ;&>f",
    "a;&>f b",
    "a;&>>f",
    "a; &>f",
    "a;\n&>f",
    "for x in a;&>f do :; done",
    "for ((a;&b;c)); do :; done",
    "for ((;;)); do :; done",
    "for ((;;));&>f do :; done",
    "case x in a) b;&\nesac",
    "case x in a) b;;&\nesac",
    # `name () ...`: the name is not a reserved word (after `function` it may be)
    "do() { :; }",
    "x; do () { :; }",
    "fi() { :; }",
    "in() { :; }",
    "done() { :; }",
    "esac() { :; }",
    "}() { :; }",
    "]]() { :; }",
    "coproc() { :; }",
    "then() { :; }",
    "elif() { :; }",
    "function do { :; }",
    "dox() { :; }",
    "done_() { :; }",
    "a-b() { :; }",
    # a subscript pairs its brackets, as bash counts them
    "a[x[1]",
    "then[x[1]=2 -n ",
    "a[x[1]] b",
    "a[x[1]=2",
    "a[x[1]]=2",
    "x[1]=2 a[b[c]",
    'a["x y"]=1',
    "a=([x[1]]=2)",
    "a=([x[1]=2)",
    "echo a\\\nb",
    "echo 1 \\ 2",
]

# Each kind once found accepted although bash -n rejects it, with its near neighbours that
# bash accepts: the verdicts must match both ways.
REGRESSIONS = [
    # accepted wrongly once, in outputs of SmolLM2 under the grammar (bench_code_model,
    # sampled; shortened): `do ( )` and `fi ( ... )` read as function definitions
    "if [ $1 = 0 ]; do ( )\nwhile a\ndo b\ndone\nthen c\nfi",
    "while fi ( \\\n)  {\n  curl a\n}\ndo a\ndone",
    # [[ ]]: after ==, = and != a pattern, where an extglob group runs to its ")"
    "[[ a == @(b ]]",
    "[[ a == @(b) ]]",
    "[[ a = x!(b|c ]]",
    "[[ a != x!(b|c)y ]]",
    '[[ a == "x"*(b ]]',
    "[[ a == @(b c;d) ]]",
    "[[ a == @(b ]] ) ]]",
    "[[ a == @(b\nc) && c ]]",
    "[[ a == ?(b) && c == +(d ]]",
    "[[ !(a # ) ]]",
    "[[ ! (a) ]]",
    # [[ ]]: after =~ a regex, where "(" runs to its ")"
    "[[ a =~ (b ]]",
    "[[ a =~ x(b|c ]]",
    "[[ a =~ ^(b c)+$ ]]",
    "[[ a =~ \\.( ]]",
    "[[ a =~ \\.(b) ]]",
    "[[ a =~ x (b ]]",
    '[[ a =~ (b" ) ]]',
    # ${...}: quotes, $'...', $[...] and <( >( are read inside
    "echo ${b:+<(c}",
    "echo ${b:+<(c)}",
    "echo ${b:->(c}",
    "echo ${b:-a<b>c}",
    "echo ${b:+$'\\'}'",
    "echo ${b:+$'\\''}",
    "echo ${b:+$[c}",
    "echo ${b:+$[c]}",
    "echo $[ a[1] ]",
    "echo $[ a[1 ]",
    'echo "${b:+<(c}"',
    # for ((...)): a subscript right after ${ or the name runs to its "]"
    "for ((i = 0; i < ${[#f[@]}; i++)); do :; done",
    "for ((i = 0; i < ${#f[@]}; i++)); do :; done",
    "for (( ; ${a[} ; )); do :; done",
    "for (( ; ${a[b]}+${!c[@]} ; )); do :; done",
    "for (( ; ${a[[]} ; )); do :; done",
    "for (( ; ${a[[]]} ; )); do :; done",
    'for (( ; "${a[}" ; )); do :; done',
    # arithmetic: the parentheses of a ${...} count with the arithmetic's own
    "for ((i = 0; i < ${#f[@)))]}; i++)); do :; done",
    "(( ${a))} ))",
    "echo $(( ${a))} ))",
    "(( ${a[))]} ))",
    '(( ${a:-"))"} ))',
    "echo $(( ${#a[@]} + ${b:-(1)} ))",
    "for (( ; (${a[}) ; )); do :; done",
    "for (( ; ${a:-[} ; )); do :; done",
    # a redirection's target of digits glued to < or >: those digits are the next one's number
    "wc -l a >> out.log< 2>&1",
    "a < 2>&1",
    "a < 2 >&1",
    "a <<< 2>f",
    "a &> 2<f",
    "a >& 2>f",
    "a 3< 2",
    "< 2 < 3 cmd >5",
    "{ :; } < 2>f",
    "{ :; } < 2 >f",
    "x=1 < 2>f cmd",
    "local x < 2>f",
    "cmd < 2<(ls)",
    "a < {x}>f",
    "a <<< {x}>f",
    "a < {x} >f",
    "echo {x}>f {x} {x}y a{x} {x}{y} {1} {a-b}",
    "exec {fd}>&-",
    # an assignment is never the command name: after one, `a[b` is the command and needs its "]"
    "V= a[b",
    "VAR1=\nVAR2= ic[o\n",
    "V=1 a[b] c[d",
    "a+=1 b[",
    "a[1]+=2 b",
    "x+y=3 cmd",
    "x=1 then",
    "x=1 then[b",
    "x=1 then[b] c",
    "var=#not-comment # c",
    "local a=#b c=#",
    # $'...' inside arithmetic
    "echo $(( $'\\' ))",
    "echo $(( $'\\'' ))",
    "for (( $'\\' ; ; )); do :; done",
    # an array assignment: only while the command has had nothing but redirections, or right
    # after another assignment; after an assignment and a redirection `a=(` is a word
    "x=1 <f a=(1)",
    "<f a=(1)",
    "<f <g a=(1)",
    "2>f a=(1)",
    "<f x=1 a=(1)",
    "<f x=1 <g a=(1)",
    "x=1 a=(1) <f",
    "x=1 >f a=(1)",
    "x=1 2>3 y=(1)",
    "x=1 >&2 a=(1)",
    "x=1 <<<f a=(1)",
    "x=(1) <f a=(1)",
    "a=(1) <f b=(1)",
    "<f a=1 b=(1)",
    "<f a=1 <g b=(1)",
    "x=1 <f a=1 b=(1)",
    "x=1 <f a[0]=(1)",
    "x=1 <f a+=(1)",
    "x=1 <f a=1 if",
    "x=1 <f a=1 <g",
    "x=1 <f a= b",
    "x=1 2>3 y=1",
    "x=1<f y=2",
    "2>3 x=(1) y",
    # declare and its kin take arrays until their first redirection
    "<f declare a=(1)",
    "x=1 declare a=(1)",
    "x=1 <f declare a=(1)",
    "x=1 <f declare a=1",
    "x=1 <f local a=(1)",
    "x=1 <f a=1 declare b=(1)",
    "declare a=(1) <f b=(1)",
    "declare x <f b=(1)",
    "declare >f a=(1)",
    "declare x 2>3 y=(1)",
    "x=1 declare <f a=(1)",
    "declare -a x=(1) y=(2)",
    "declare a=(1) <f b",
    "declare x 2>3 y",
    "export a=(1) <f b=1",
    # a backslash-newline outside quotes and comments: bash removes it, joining what is around it
    "cat > \\\n;",
    "for\\\nx in a; do :; done",
    "fo\\\nr x in a; do :; done",
    "\\\n",
    "\\\necho",
    "\\\n\\\necho",
    "\\\nif true; then :; fi",
    "i\\\nf true; then :; fi",
    "echo; f\\\ni",
    "if true; then :; f\\\ni",
    "a &\\\n& b",
    "a >\\\n> f",
    "a ;\\\n; b",
    "case a in a) :;\\\n; esac",
    "echo a |\\\n cat",
    "echo a \\\n| cat",
    "echo a\\\nb",
    "echo a \\\n b",
    "echo a\\\n b",
    "echo a\\\n",
    "echo a\\b",
    "echo \\\\",
    "echo \\\\\\\n",
    "echo \\\\\nx",
    "x=1\\\n y=2",
    "a=(1\\\n 2)",
    "echo $((1 +\\\n 2))",
    "echo $(\\\n(1))",
    "echo $\\\n((1))",
    "echo ${a\\\n}",
    "echo $\\\n{a}",
    "[[ a ==\\\n b ]]",
    "[\\\n[ a == b ]]",
    "[[ a == b ]\\\n]",
    # ... but not in a comment, '...' or $'...', and it joins the lines of "..."
    "echo a # c\\\n; (",
    "echo a # c\\\n",
    "echo a \\\n#c",
    "echo a\\\n#c",
    "echo 'a\\\nb'",
    "echo 'a\\\n",
    "echo $'a\\\nb'",
    'echo "a\\\nb"',
    'echo "$\\\n{a}"',
    'echo "a\\\\\\\nb"',
    "echo `a\\\nb`",
    # heredoc delimiters as bash reads them: a backslash-newline joins the word (not in '...'),
    # "..." removes a backslash before $ ` " \\ only, and "<< -E" ends at -E
    "cat <<E\\\nF\nEF\n(\nE\n",
    "cat <<E\\\nF\nE\n(\nEF\n",
    "cat <\\\n<E\nE\necho",
    "cat <<\\\n-E\n\tE\necho",
    "cat << -EOF\n-EOF\n(\nEOF\n",
    "cat << -EOF\nEOF\n(\n-EOF\n",
    'cat <<"a\\\\b"\na\\b\n(\na\\\\b\n',
    'cat <<"a\\\\b"\na\\\\b\n(\na\\b\n',
    'cat <<"a\\"b"\na"b\necho',
    'cat <<"a\\$b"\na$b\n(\na\\$b\n',
    'cat <<"a\\xb"\na\\xb\necho',
    "cat <<E\nx\\\nE\n(\nE\n",
    "cat <<'E'\nx\\\nE\n(\nE\n",
    "cat <<E\nE\n\\\necho",
    "cat <<'E'\n\\\nE\n(\nE\n",
    # `name[` where bash reads assignments (nothing but redirections before, or right after an
    # assignment) starts a subscript that runs to its "]" across blanks, newlines and
    # operators, with quotes and expansions in it; elsewhere "[" is a word's character
    "esac[ \n} ]",
    "esac[ 1 ]",
    "esac[ ( ]",
    "if[ b ]",
    "a[ b ] c",
    "a[ ; ]",
    "a[ x ]=1",
    "a[ b ]+=1",
    "a[ b ]=(1)",
    "a[\n]=1",
    "a[ #x\n ]=1",
    "x[ \n]",
    "x[ \n",
    "a[ b",
    "x=1 a[ b",
    "x=1 a[ b ]",
    "a=1 b[ c ]=2 d[ e",
    "a[ b ]=1 c[ d",
    ">f a[ b",
    ">f a[ b ]",
    ">f a[ ( ]",
    "x=1 >f a[ b",
    "x=1 >f a[ ( ]",
    "x=1 >f a[ ( ]=1",
    "x=1 >f a[ ; ]",
    "x=1 >f if",
    "x=1 >f then",
    "! a[ b",
    "time a[ b",
    "a | b[ c",
    "while a[ b ]; do :; done",
    "echo a[ b ]",
    "echo a[ b",
    "a[b]c d[ e",
    "case x in a[ b ]) ;; esac",
    "a['x]=1",
    'a["x]=1',
    "a[$(]=1",
    "a[`]=1",
    "a[']']=1",
    'a["]"]=1',
    'a["]"] b',
    "a['x]'] b",
    "a[$x]=1",
    "a[${x}]=1",
    'a["$x"]=1',
    'a["${x} y"]=1',
    "a[$((i + 1))]=1",
    "a[$((1]))]=1",
    "a[$((1'))]=1",
    "a[$x[ ]=1",
    "a[x[ ]]=1",
    "esac['x]",
    "esac[\\]=1",
    # after `declare` and its kin the subscript is part of a word: a blank or an operator ends it
    "declare a[ b ]=(1)",
    "declare a[ b]=(1)",
    "declare a[x y]=(1)",
    "declare a[x;y]=(1)",
    "declare -a a[ b ]=(1)",
    "local a[ b ]=(1)",
    "export a[ b ]=(1)",
    "x=1 declare a[ b ]=(1)",
    "declare a[ b ]=1",
    "declare a[ b",
    "declare a[b]=(1)",
    "declare a[b]=( 1 )",
    "declare a[b=(1)",
    "declare a[x]]=(1)",
    "declare a[x[1]]=(1)",
    "declare a[$x]=1",
    "declare do[$x];",
    # in an array a word that starts with "[" is a subscript, read as a matched pair too
    "a=([ x ])",
    "a=([ x ]=1 [y]=2)",
    "a=([ ; ]=1)",
    "a=([ ( ]=1)",
    "a=([\n]=1)",
    "a=( [ x ] )",
    "a=(b [ x ]=1)",
    "a=(['x]']=1)",
    'a=([$x]=1 ["$y z"]=2)',
    "a=([ )",
    "a=(['x]=1)",
    "a=([)",
    "a=(])",
    "a=(x[ y ]=1)",
    "declare -A a=([ x ]=1)",
    "x=1 >f a=([ y ])",
    # ...and only there: after "k" the "[" is a character of the word
    'a=("k"[;])',
    'a=("k"[ ( ] c)',
    'a=("k"[x] c)',
    'a=(x"y"[1])',
    # a function name with such a subscript
    "a[ b ]() { :; }",
    "a[ ; ]() { :; }",
    "a['x]']() { :; }",
    "esac[ 1 ]() { :; }",
    "a[ b ] () { :; }",
    "a[ ( ]() { :; }",
    "! a[ b ]() { :; }",
    "x=1 a[ b ]() { :; }",
    ">f a[ b ]() { :; }",
    "a[ b ]=() { :; }",
    # {name} after <& / >&, and {name[subscript]} after any redirection, right before < or >:
    # bash reads it as the next redirection's variable (the first then has no target)
    "cat <& {V}>&-",
    "cat <&{V}>&-",
    "cat <{V[a]}>x",
    "cat >{V[a]}<x",
    "cat <{V[$i]}>x",
    "cat <& {V[1]}<x",
    "cat 2>&{V[1]}>x",
    "cat <<<{V[1]}>x",
    "cat <& {V} >&-",
    "cat <{V[1]} >x",
    "cat 2>&1>x",
    "cat {V[1]}<x",
    "echo {a[1]} $x{a[1]} x{a[1]}; a={b[1]}; cat <{V[1]}; cat <$x{a[1]}>y",
    "exec {V[0]}<&- {V[1]}>&-; cat >&{V} 2>x; cat <&{V[1]}|cat",
    "case {a[1]} in {a[1]}) ;; esac; [[ {a[1]} == {a[1]} ]]",
    # after <& / >&, a lone "-" is a token of its own: what is glued to it is a new word, which
    # a compound command cannot take (a simple command takes it as an argument)
    "( a ) >&-2",
    "( a ) >&-x",
    "( a ) >&-$x",
    "( a ) >&-{V}",
    "( a ) >&--",
    "( a ) >& -2",
    "{ a; } <&-x",
    "if a; then b; fi >&-x",
    "f() { :; } 2>&-x",
    "( a ) >&-",
    "( a ) >&-2>x",
    "( a ) >&-{V}>x",
    "( a ) >&->x",
    "( a ) 2>&-<x",
    "( a ) >&-;b",
    "( a ) >&-|b",
    "( a ) >&-#c",
    "( a ) >&$x-2; ( a ) >&x-2",
    "cat >&-2; cat >& -x; a=1 >&-2; a=1 >&-b",
    ">&-a[ b",
    ">&-a[ $x\n",
    ">&- a[ b ] x; >&-2>f a[ b ]; >&->f x; >&-;x; x=1 >&-a[ b",
    # digits, {name} and {name[...]} glued to < or > are a redirection's number or variable,
    # never a command's name: the next word may open a subscript
    "2>f a[",
    "{V}>f a[",
    "{V[1]}>f a[",
    ">f 2>g a[",
    "2>&1 whoam[[",
    "2>f a[ b ]",
    "x=1 2>f a[",
    "2 >f a[",
    "2 x; 2; {V} x; {V[1]} x; >f 2 x; 2|x; (2)",
    "2$x>f y[; {V}x>f a[; 2x>f a[",
    # in a subscript bash reads <( and >( nested, to their ")"
    "a[<(in]>& *",
    "a[<(x]=1",
    "a[1<(x]=1",
    "a[b>(]=1",
    "a=([<(]=1)",
    "a[<(x]() { :; }",
    "a[x<y]=1; a[x>1]=2; a[ x < y ] b; a[(]",
]


@pytest.mark.parametrize("script", REGRESSIONS)
def test_regressions_match_bash_n(script: str) -> None:
    expected = bash_accepts(script) and script not in MALFORMED_CONDITIONALS
    assert GRAMMAR.validate(script, strict=True) is expected


# Scripts bash -n accepts that the grammar deliberately rejects (docs/grammar_languages.md).
NOT_COVERED = {
    "cat <<EOF\nunterminated",  # bash only warns about a heredoc ended by end of file
    "cat <<A <<BB\nABB",  # the same: "ABB" is a line of A's body, which the end of file ends
    "cat <<A <<B\nA",  # the same for B
    "cat <<A\nA\\\nA\n",  # the same: the body's line is "AA"
    "time;",  # a lone `time` (bash allows one before ";", a newline or the end)
    'then"x"',  # a first word that starts with a reserved word and goes on quoted
    # a redirection target that starts with {name[ right before < or >, though bash would not
    # read it as a variable ({name[]} is not one, nor {name[a]b})
    "cat <{V[]}>x",
    "cat <{V[a]b}>x",
    # a word glued to a lone "-" after <& or >& before a command's name (bash reads it as the
    # name, or an assignment)
    ">&-x",
    ">&-a=(1)",
    ">&-a[ b ]",
    # {name[subscript]} as a redirection's variable right after a compound command
    "( a ) {V[1]}>x",
    # < or > in a subscript before anything but a plain character other than "("
    "a[x<]=1",
    'a[<"x"]=1',
    "a[<(x)]=1",
}


@pytest.mark.parametrize("script", CASES + sorted(NOT_COVERED))
def test_verdict_matches_bash_n(script: str) -> None:
    expected = (
        bash_accepts(script) and script not in NOT_COVERED and script not in MALFORMED_CONDITIONALS
    )
    assert GRAMMAR.validate(script, strict=True) is expected


# A malformed [[ ]]: bash prints an error but exits with status 0 at the top level, where it
# stops reading; inside $( ) the same text fails. The grammar rejects it everywhere.
MALFORMED_CONDITIONALS = [
    "[[ ]]",
    "[[ a b ]]",
    "[[ a =~ x (b ]]",
    "[[ -f ]]",
    "[[ -f a b ]]",
    "[[ a == ]]",
    "[[ a == ]] ]]",
    "[[ -f ]] ]]",
    "[[ a && ]]",
    "[[ ! ]]",
    "[[ ( a ) b ]]",
    "[[ a ) ]]",
    "[[ ( a ]]",
    "[[ a\nb ]]",
    "[[ a\n]]",
    "[[ a -foo b ]]",
    "[[ a -e b ]]",
    "[[ a !~ b ]]",
    "[[ a == b c ]]",
    "[[ a == b|c ]]",
    "[[ a =~ b | c ]]",
    "[[ a =~ b&c ]]",
    "[[ a =~ b) ]]",
    "[[ a <(b) ]]",
    "[[ @(b|c) ]]",
    "[[ !(a) == b ]]",
    "[[ a ]]x ]]",
    "[[ a | b ]]",
]


@pytest.mark.parametrize("script", MALFORMED_CONDITIONALS)
def test_malformed_conditionals_are_rejected(script: str) -> None:
    assert not bash_accepts(f"x=$({script}\n)\n"), "bash fails it inside $( )"
    for text in (script, f"x=$({script})", f"if {script}; then :; fi", f"f() {{ {script}; }}"):
        assert not GRAMMAR.validate(text, strict=True), repr(text)


# Well-formed ones, each near a malformed one above (bash -n agrees inside $( )).
CONDITIONALS = [
    "[[ a ]]",
    "[[ == ]]",
    "[[ -f == ]]",
    "[[ -f -f ]]",
    "[[ ! -f a && ( b || c ) ]]",
    "[[ !(a) ]]",
    "[[ !a ]]",
    "[[ (a)]]",
    "[[ a<b ]]",
    "[[ a >b ]]",
    "[[ ]]$x ]]",
    "[[ a == ]]$x ]]",
    "[[ a =~ ]]| ]]",
    "[[ a =~ b|c ]]",
    "[[ a =~ | ]]",
    "[[ a =~ b|| ]]",
    "[[ a =~ b || c ]]",
    "[[ (a =~ b|) ]]",
    "[[ a =~ (b c) ]]",
    "[[ a == @(b|c)d ]]",
    "[[ a &&\n# c\n b ]]",
    "[[ -f a # c\n]]",
    "[[ a -nt b\n]]",
    "[[ <(b) ]]",
    "[[ a -eq b ]]",
]


@pytest.mark.parametrize("script", CONDITIONALS)
def test_conditionals_match_bash_n_inside_a_substitution(script: str) -> None:
    assert bash_accepts(f"x=$({script}\n)\n")
    assert GRAMMAR.validate(f"x=$({script}\n)\n", strict=True)
    assert GRAMMAR.validate(script, strict=True)


SCRIPTS = [
    '#!/bin/bash\n\nfunction greet() {\n    local name=$1\n    echo "Hello, $name!"\n}\n\n'
    'if [ $# -eq 0 ]; then\n    echo "Usage: $0 <name>"\n    exit 1\nfi\n\ngreet $1\n',
    'for f in *.txt; do\n  [[ -f "$f" ]] || continue\n  wc -l "$f" >> out.log 2>&1\ndone\n',
    'case "$1" in\n  start|run) echo start ;;\n'
    '  *) echo "unknown: ${1:-none}" >&2; exit 1 ;;\nesac\n',
    'files=(a b "c d")\nfor ((i = 0; i < ${#files[@]}; i++)); do\n'
    '  echo "$i: ${files[$i]}"\ndone\n',
    "while read -r line; do\n  count=$((count + 1))\ndone < <(find . -name '*.py' | sort)\n"
    'echo "$count" | tee -a log.txt\n',
    "cat <<EOF > config.ini\n[main]\nname=$USER\n"
    "EOF\nsed -i 's/a/b/g' config.ini && echo ok || echo fail\n",
    'declare -A seen\nseen[ "$key" ]=1 total[$((n + 1))]=0\nesac[ x ] "a[ b ]"\n'
    "map['k]'] | sort\n",
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_scripts_and_every_prefix(script: str) -> None:
    assert bash_accepts(script)
    assert GRAMMAR.validate(script, strict=True)
    for cut in range(len(script)):
        assert GRAMMAR.validate(script[:cut], strict=False), repr(script[:cut])


# Backslash-newlines everywhere the hook removes them or keeps them.
CONTINUED = [
    "cat > out \\\n  --opt \\\n  && e\\\ncho \"a\\\nb\" 'c\\\nd' # x\\\n\\\necho ${a\\\n} "
    "$((1 +\\\n 2)) &\\\n& f\\\nalse\n",
    "cat <<E\\\nF\nx\nEF\n\\\necho a\\\\\\\nb |\\\n cat\n",
]


@pytest.mark.parametrize("tokenizer", [smollm2_tokenizer, llama3_tokenizer], ids=["49k", "128k"])
@pytest.mark.parametrize("script", CONTINUED)
def test_masks_agree_with_validate_across_continuations(tokenizer: Any, script: str) -> None:
    """At every token of the script, each token with a backslash or a newline (and a sample of
    the others) is in the mask exactly when the text with it is a valid prefix."""
    assert bash_accepts(script)
    engine = StructuringEngine(tokenizer())
    engine.configure(LarkGrammarStateMachine(GRAMMAR))
    vocab = engine.native_vocabulary
    tokens = [vocab.token_bytes(i) for i in range(len(vocab))]
    tried = {j for j, t in enumerate(tokens) if t and (b"\\" in t or b"\n" in t)}
    tried |= set(random.Random(0).sample(range(len(tokens)), 300))
    assert_masks_follow_validate(engine, GRAMMAR, script, tried)


def test_documented_examples() -> None:
    grammar = BashGrammar()
    assert grammar.delimiters == ("```bash\n", "\n```")
    incomplete_code = "if [ -f /etc/passwd ]; then\n  grep 'root' /etc/passwd"
    assert BashStateMachine.grammar.validate(incomplete_code, strict=False)
    assert not BashStateMachine.grammar.validate(incomplete_code, strict=True)


def test_mutations_once_accepted_wrongly_are_rejected() -> None:
    """One-character edits of SCRIPTS that the grammar used to accept and bash -n rejects."""
    for text in (
        'f=(a)\nfor ((i = 0; i < ${[#f[@]}; i++)); do\n  echo "$i"\ndone\n',
        "wc -l a >> out.log< 2>&1\n",
    ):
        assert not bash_accepts(text)
        assert not GRAMMAR.validate(text, strict=True)


@settings(max_examples=200, deadline=None)
@given(
    script=st.sampled_from(SCRIPTS),
    where=st.floats(0, 1),
    edit=st.sampled_from(["delete", "insert", "replace"]),
    char=st.sampled_from(list(" \t\n()[]{};|&<>$`'\"#\\=!ifdo")),
)
def test_mutations_never_accepted_when_bash_rejects(
    script: str, where: float, edit: str, char: str
) -> None:
    """One-character edits of real scripts: a text bash -n rejects is never accepted."""
    i = min(int(where * len(script)), len(script) - 1)
    if edit == "delete":
        text = script[:i] + script[i + 1 :]
    elif edit == "insert":
        text = script[:i] + char + script[i:]
    else:
        text = script[:i] + char + script[i + 1 :]
    if GRAMMAR.validate(text, strict=True):
        assert bash_accepts(text), repr(text)
