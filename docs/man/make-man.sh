#!/bin/sh
# make-man.sh CONTEND OUTDIR VERSION - writes contend.1 and contend-COMMAND.1
# into OUTDIR from the command's own --help texts, so the manual pages say
# exactly what the program says (`make man`; `make install` installs them).
set -e
C=$1 out=$2 version=${3:-unknown}
[ -x "$C" ] && [ -n "$out" ] || { echo "usage: make-man.sh CONTEND OUTDIR [VERSION]" >&2; exit 2; }
mkdir -p "$out"
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" +%Y-%m-%d 2>/dev/null || date -u +%Y-%m-%d)
# troff-safe verbatim text: backslashes doubled as \e, a leading . or ' escaped
verbatim() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
page() { # page NAME SECTION-TITLE SUMMARY HELP-COMMAND...
    name=$1 summary=$2
    shift 2
    tmp="$out/.$name.1.tmp"
    {
        printf '.TH %s 1 "%s" "contend %s" "User Commands"\n' "$(echo "$name" | tr a-z A-Z)" "$date" "$version"
        printf '.SH NAME\n%s \\- %s\n' "$name" "$summary"
        printf '.SH DESCRIPTION\n.nf\n'
        "$@" 2>&1 | verbatim
        printf '.fi\n'
        printf '.SH SEE ALSO\n'
        if [ "$name" = contend ]; then
            printf 'contend-dag(1), contend-nona(1), contend-sample(1), contend-sim(1), contend-bco(1), '
            printf 'contend-train(1), contend-merge(1), contend-export(1), contend-serve(1); '
        else
            printf 'contend(1); '
        fi
        printf 'the documentation in docs/ of the source tree (docs/README.md).\n'
    } >"$tmp"
    mv "$tmp" "$out/$name.1"
}
page contend "precompute scheduling policies for GPU clusters whose jobs contend for the network" "$C" --help
for cmd in dag nona sample sim bco train merge export serve; do
    summary=$("$C" --help 2>&1 | awk -v c="$cmd" '$1 == c { $1 = ""; sub(/^ +/, ""); print; exit }')
    page "contend-$cmd" "${summary:-contend $cmd}" "$C" "$cmd" --help
done
