require "shop"

RSpec.describe Shop::Store do
  let(:store) { Shop::Store.new("test") }

  it "finds what it added" do
    store.add(Shop::Models::Item.new("pen", 2.0))
    expect(store.find("pen")).not_to be_nil
  end

  it "quotes zero for unknown items" do
    expect(store.quote("nothing")).to eq(0)
  end
end
