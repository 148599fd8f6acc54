require_relative "store_base"
require_relative "models/item"

module Shop
  # Keeps items by name. Persistence lives in ext/store_persistence.rb.
  class Store < Base
    include Enumerable

    MAX_ITEMS = 100

    attr_reader :items

    def initialize(name)
      super(name)
      @items = {}
      @index = Index.new
    end

    # Adds an item, refusing duplicates and a full store.
    # @param item [Models::Item]
    def add(item)
      raise ArgumentError, "no item" if item.nil?
      return false if items.size >= MAX_ITEMS

      @items[item.name] = item
      @index.record(item.name)
      log("added #{item.name}")
      self.touch
      true
    end

    def each(&block)
      items.each_value(&block)
    end

    # @return [Models::Item, nil]
    def find(name)
      items[name]
    end

    def cheapest
      min_by(&:gross)
    end

    def quote(name)
      item = find(name)
      return 0 unless item

      item.gross
    end

    def describe
      super + " with #{items.size} items"
    end

    private

    def touch
      @dirty = true
    end

    # Remembers names in insertion order.
    class Index
      def initialize
        @names = []
      end

      def record(name)
        @names << name
      end
    end
  end
end
