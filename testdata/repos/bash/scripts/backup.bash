#!/usr/bin/env bash
# Dumps the database to S3 every night.

source "${BASH_SOURCE%/*}/../lib/log.sh"

BACKUP_DIR="/var/backups/shop"

cleanup() {
  rm -f "$BACKUP_DIR"/*.partial
}

# Dumps, compresses and uploads one backup.
backup() {
  local stamp
  stamp="$(date +%F)"
  mkdir -p "$BACKUP_DIR"
  pg_dump "$DATABASE_URL" | gzip > "$BACKUP_DIR/shop-$stamp.sql.gz.partial"
  mv "$BACKUP_DIR/shop-$stamp.sql.gz.partial" "$BACKUP_DIR/shop-$stamp.sql.gz"
  aws s3 cp "$BACKUP_DIR/shop-$stamp.sql.gz" "s3://shop-backups/" || die "upload failed"
  log "backup $stamp done"
}

trap cleanup EXIT
backup
