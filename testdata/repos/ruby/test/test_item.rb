require "minitest/autorun"
require_relative "../lib/shop/models/item"

class TestItem < Minitest::Test
  def setup
    @item = Shop::Models::Item.new("cup", 3.0)
  end

  def test_gross_adds_tax
    assert_in_delta 3.6, @item.gross
  end

  def test_parse
    assert_equal "pen", Shop::Models::Item.parse("pen,1").name
  end
end
