#!/bin/sh
# docs_links.sh - every relative link in README.md and docs/*.md names a
# file that exists (and, with #anchor, a heading of that file), and every
# docs page is reachable from docs/README.md (issue #29).
. tests/cli-lib.sh
for f in README.md docs/*.md; do
    dir=$(dirname "$f")
    # [text](target) links, not URLs or mail
    grep -o '\]([^)]*)' "$f" | sed 's/^](//; s/)$//' | grep -v '^[a-z]*:' | while read -r target; do
        path=${target%%#*} anchor=
        case "$target" in *'#'*) anchor=${target#*#} ;; esac
        [ -n "$path" ] || path=$(basename "$f")
        [ -e "$dir/$path" ] || { echo "FAIL: $f: link to $target: no such file"; continue; }
        if [ -n "$anchor" ]; then
            # GitHub's anchors: lower case, punctuation but - and _ dropped, spaces to -
            grep '^#' "$dir/$path" | sed 's/^#* //' | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9 _-]//g; s/ /-/g' |
                grep -qx -- "$anchor" || echo "FAIL: $f: link to $target: no such heading"
        fi
    done
done >"$T/links"
while read -r line; do fail "${line#FAIL: }"; done <"$T/links"
for p in docs/*.md; do
    [ "$p" = docs/README.md ] && continue
    grep -q "($(basename "$p"))" docs/README.md || fail "docs/README.md does not list $(basename "$p")"
done
finish
