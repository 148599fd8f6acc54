require "json"
require "shop/version"
require_relative "shop/store"
require_relative "shop/ext/store_persistence"

# The shop: a store of items, kept in a file.
module Shop
  # Opens the store saved at path, or a new one.
  # @param path [String] where the store is kept
  # @return [Store]
  def self.open(path)
    return Store.new("main") unless File.exist?(path)

    Store.load(path)
  end
end
