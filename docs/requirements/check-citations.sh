#!/usr/bin/env bash
# Lists every citation of a requirement ("000 §4", "001 §3, §7–8") or a ruling ("R4", "R3–R6")
# in the repository that has no heading in docs/requirements; exits 1 if there is one.
cd "$(git rev-parse --show-toplevel)" || exit 2
sources=(apps packages e2e docs ARCHITECTURE.md README.md)
include=(--include=*.ts --include=*.tsx --include=*.md)

# "doc from to" per cited section or range, e.g. "001 7 8".
sections() {
  grep -rhoE "\b00[01] §[0-9]+(–§?[0-9]+)?((, | and )§[0-9]+(–§?[0-9]+)?)*" \
    "${sources[@]}" "${include[@]}" |
    sed -E 's/(, | and )/ /g; s/§//g' |
    while read -r doc rest; do
      for t in $rest; do echo "$doc ${t%–*} ${t#*–}"; done
    done
}
# "from to" per cited ruling or range, e.g. "3 6".
rulings() {
  grep -rhoE "\bR[0-9]{1,2}(–R[0-9]{1,2})?\b" "${sources[@]}" "${include[@]}" |
    sed -E 's/^R//; s/–R/ /' | while read -r a b; do echo "$a ${b:-$a}"; done
}

unresolved=$(
  sections | sort -u | while read -r doc from to; do
    file=docs/requirements/000-account-area.md
    [ "$doc" = 001 ] && file=docs/requirements/001-public-and-onboarding.md
    for n in $(seq "$from" "$to"); do
      grep -q "^## §$n " "$file" || echo "$doc §$n"
    done
  done
  rulings | sort -u | while read -r from to; do
    for n in $(seq "$from" "$to"); do
      grep -q "^## R$n " docs/requirements/rulings.md || echo "R$n"
    done
  done
)
if [ -n "$unresolved" ]; then
  echo "Citations without a heading in docs/requirements:"
  echo "$unresolved" | sort -u
  exit 1
fi
echo "Every cited section and ruling has its heading in docs/requirements."
