# samply-fold.jq - what one writes today to fold a samply profile of
# format version 41 to 55 (per-thread tables) with jq: the bench's peer.
# Frames samply left unsymbolicated are [LIB], as stackcollapse-samply
# --no-symbols writes them.
def hex: if . == 0 then "0" else [recurse(if . >= 16 then (. / 16 | floor) else empty end) | . % 16]
  | reverse | map("0123456789abcdef"[.:.+1]) | join("") end;
.libs as $libs
| [ .threads[]
    | .stringArray as $s | .stackTable as $st | .frameTable as $ft
    | .funcTable as $fn | .resourceTable as $rt
    | .samples as $sm
    | (reduce range(0; $sm.stack | length) as $k ({};
        if $sm.stack[$k] == null then . else
          .[$sm.stack[$k] | tostring] += (if $sm.weight == null then 1 else $sm.weight[$k] end)
        end)) as $cnt
    | $cnt | to_entries[]
    | .value as $w
    | [ .key | tonumber | recurse($st.prefix[.] // empty) ] | reverse
    | map($st.frame[.] as $f
        | $ft.func[$f] as $fu | $s[$fn.name[$fu]] as $nm
        | $fn.resource[$fu] as $r
        | (if $r != null and $r >= 0 then $rt.lib[$r] else null end) as $l
        | $ft.address[$f] as $a
        | if $l != null and $a != null and $a >= 0 and $nm == "0x" + ($a | hex)
          then "[" + $libs[$l].name + "]"
          else $nm | gsub(";"; ":") end)
    | { s: join(";"), w: $w } ]
| reduce .[] as $x ({}; .[$x.s] += $x.w)
| to_entries[] | "\(.key) \(.value)"
