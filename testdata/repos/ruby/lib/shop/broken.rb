module Shop
  # A file in the middle of an edit.
  class Broken
    def fine(item)
      item.gross
    end

    def half(item)
      item.gross(]
    end

    def after
      fine(nil)
    end
  end
end
