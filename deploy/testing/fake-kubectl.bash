# A stand-in for kubectl, sourced before a documented script runs, holding Secrets as files:
# $KUBECTL_STORE/<secret>/<key> (the value) and <secret>/.type. It knows the few commands the docs' scripts
# use, answers as kubectl does where they look (exit status, a template's output), and refuses anything else.
kubectl() {
  local args=()
  while [ $# -gt 0 ]; do
    if [ "$1" = -n ]; then shift 2; else args+=("$1"); shift; fi
  done
  set -- "${args[@]}"
  case "$1 $2" in
    'apply -f') [ -f "$3" ] || { echo "error: the path \"$3\" does not exist" >&2; return 1; } ;;
    'create secret') _fake_kubectl_create "${@:3}" ;;
    'get secret') _fake_kubectl_get "${@:3}" ;;
    'delete secret')
      shift 2
      for name; do [ -d "$KUBECTL_STORE/$name" ] || { echo "Error from server (NotFound): secrets \"$name\" not found" >&2; return 1; }; done
      for name; do rm -r "${KUBECTL_STORE:?}/$name"; echo "secret \"$name\" deleted"; done ;;
    *) echo "fake kubectl: unexpected command: $*" >&2; return 2 ;;
  esac
}

# create secret generic <name> [--type=<type>] --from-literal=<key>=<value>...
_fake_kubectl_create() {
  [ "$1" = generic ] || { echo "fake kubectl: unexpected secret kind $1" >&2; return 2; }
  local name=$2 dir="$KUBECTL_STORE/$2" arg literal
  shift 2
  if [ -e "$dir" ]; then echo "error: failed to create secret secrets \"$name\" already exists" >&2; return 1; fi
  mkdir -p "$dir"
  printf %s Opaque > "$dir/.type"
  for arg; do
    case $arg in
      --type=*) printf %s "${arg#--type=}" > "$dir/.type" ;;
      --from-literal=*=*)
        literal=${arg#--from-literal=}
        if [ -e "$dir/${literal%%=*}" ]; then echo "error: cannot add key ${literal%%=*}, another key by that name already exists" >&2; rm -r "$dir"; return 1; fi
        printf %s "${literal#*=}" > "$dir/${literal%%=*}" ;;
      *) echo "fake kubectl: unexpected argument $arg" >&2; rm -r "$dir"; return 2 ;;
    esac
  done
  echo "secret/$name created"
}

# get secret <name> [-o go-template={{index .data "<key>" | base64decode}}]
_fake_kubectl_get() {
  local name=$1 template pattern='^go-template=\{\{index \.data "([^"]+)" \| base64decode\}\}$'
  if [ ! -d "$KUBECTL_STORE/$name" ]; then echo "Error from server (NotFound): secrets \"$name\" not found" >&2; return 1; fi
  [ $# -eq 1 ] && { echo "$name"; return; }
  [ "$2" = -o ] && template=$3
  [[ $template =~ $pattern ]] || { echo "fake kubectl: unexpected output $2 $3" >&2; return 2; }
  # kubectl's template sees no value for a missing key, which base64decode refuses.
  [ -f "$KUBECTL_STORE/$name/${BASH_REMATCH[1]}" ] || { echo 'error: error executing template: invalid value; expected string' >&2; return 1; }
  cat "$KUBECTL_STORE/$name/${BASH_REMATCH[1]}"
}
