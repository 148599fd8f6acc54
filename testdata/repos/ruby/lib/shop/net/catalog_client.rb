require "net/http"
require "uri"

module Shop
  module Net
    # Fetches the catalog from the shop's server.
    class CatalogClient
      def initialize(base = ENV.fetch("SHOP_URL", "http://localhost:8080"))
        @base = URI(base)
      end

      def fetch(category)
        body = ::Net::HTTP.get(@base + "/catalog/#{category}")
        body.lines.map { |l| Shop::Models::Item.parse(l.chomp) }
      end

      def open_in_browser
        system("xdg-open", @base.to_s)
      end
    end
  end
end
