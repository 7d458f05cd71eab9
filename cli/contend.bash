# bash completion for contend - installed as
# PREFIX/share/bash-completion/completions/contend. Commands, subcommands and
# options come from the program's own --help at completion time, so they
# cannot drift from it; files everywhere else.
# Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
_contend() {
    local cur=${COMP_WORDS[COMP_CWORD]} prog=${COMP_WORDS[0]} words
    if [ "$COMP_CWORD" -eq 1 ]; then
        words=$("$prog" --help 2>/dev/null | awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { f = 0 }')
        COMPREPLY=($(compgen -W "$words --help --version" -- "$cur"))
        return
    fi
    local sub=${COMP_WORDS[1]} help
    help=$("$prog" "$sub" --help 2>/dev/null)
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(printf '%s\n' "$help" | grep -o -- '--[a-z0-9][a-z0-9-]*' | sort -u) -o -h" -- "$cur"))
        return
    fi
    if [ "$COMP_CWORD" -eq 2 ]; then
        # "contend SUB WORD ..." usage lines and "  WORD ..." under "subcommands:"
        words=$(printf '%s\n' "$help" | awk -v s="$sub" '
            { for (i = 1; i < NF; i++) if ($i == "contend" && $(i + 1) == s && $(i + 2) ~ /^[a-z][a-z-]*$/) print $(i + 2) }
            /^subcommands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { f = 0 }' | sort -u)
        if [ -n "$words" ]; then
            COMPREPLY=($(compgen -W "$words" -- "$cur") $(compgen -f -- "$cur"))
            return
        fi
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _contend contend
