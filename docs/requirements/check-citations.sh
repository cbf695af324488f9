#!/usr/bin/env bash
# Every "000 §N", "001 §N" (also "001 §3, §7") and "RN" (also "R3–R6") cited in the repository
# must be a heading in docs/requirements. Prints each citation that does not resolve.
cd "$(git rev-parse --show-toplevel)" || exit 2
files=(apps packages e2e docs ARCHITECTURE.md README.md)
inc=(--include=*.ts --include=*.tsx --include=*.md)
missing=0
while read -r doc nums; do
  file=docs/requirements/000-account-area.md
  [ "$doc" = 001 ] && file=docs/requirements/001-public-and-onboarding.md
  for n in $nums; do
    grep -q "^## §$n " "$file" || { echo "unresolved: $doc §$n"; missing=1; }
  done
done < <(grep -rhoE "\b00[01] §[0-9]+((, | and |–|-)§[0-9]+)*" "${files[@]}" "${inc[@]}" |
  sed -E 's/^(00[01]) /\1 /; s/(, | and |–|-)/ /g; s/§//g' | sort -u)
for n in $(grep -rhoE "\bR[0-9]{1,2}(–R[0-9]{1,2})?\b" "${files[@]}" "${inc[@]}" |
  sed 's/–R/ /; s/^R//' | while read -r a b; do seq "$a" "${b:-$a}"; done | sort -un); do
  grep -q "^## R$n " docs/requirements/rulings.md || { echo "unresolved: R$n"; missing=1; }
done
[ "$missing" = 0 ] && echo "every citation resolves"
exit "$missing"
