module Shop
  # Anything with a price; includers define #price.
  module Priced
    TAX = 0.2

    # The price with tax.
    def gross
      (price * (1 + TAX)).round(2)
    end

    def cheaper_than?(other)
      gross < other.gross
    end
  end
end
