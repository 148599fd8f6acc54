require_relative "priced"

module Shop
  module Models
    # An item for sale.
    class Item
      include Comparable
      include Shop::Priced

      attr_reader :name, :price
      attr_accessor :tags

      def initialize(name, price, tags: [])
        raise ArgumentError, "price must be positive" if price.negative?

        @name = name
        @price = price
        @tags = tags
      end

      def <=>(other)
        price <=> other.price
      end

      def to_s
        "#{name} (#{format('%.2f', gross)})"
      end

      # Reads "name,price" into an item.
      def self.parse(line)
        name, price = line.split(",", 2)
        new(name, Float(price))
      end
    end
  end
end
