# Configuration, read from the environment and an optional file.

export SHOP_ENV="${SHOP_ENV:-staging}"
declare -x REGISTRY="registry.example.com/shop"
declare -r NAMESPACE="shop-${SHOP_ENV}"
IMAGE_TAG=""

# Loads KEY=VALUE lines from a file into the environment.
load_config() {
  local file="${1:-$HOME/.shoprc}"
  [[ -f "$file" ]] || return 0
  while IFS='=' read -r key value; do
    export "$key=$value"
  done < "$file"
  IMAGE_TAG="$(git rev-parse --short HEAD)"
}

if [[ -r /etc/shop/defaults.sh ]]; then
  source /etc/shop/defaults.sh
fi
