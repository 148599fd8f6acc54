#!/usr/bin/env ruby
require_relative "../lib/shop"
require_relative "../lib/shop/net/catalog_client"

def usage
  abort "usage: shop FILE"
end

def main(argv)
  usage if argv.empty?
  store = Shop.open(argv.first)
  store.add(Shop::Models::Item.new("pen", 1.5))
  puts store.describe
  puts store.quote("pen")
  client = Shop::Net::CatalogClient.new
  client.fetch("food").each { |item| store.add(item) }
  store.save(argv.first)
end

main(ARGV)
