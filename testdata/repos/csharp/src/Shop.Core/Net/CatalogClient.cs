using System;
using System.Diagnostics;
using System.Net.Http;
using System.Threading.Tasks;
using Shop.Core.Models;

namespace Shop.Core.Net
{
    /// <summary>Fetches the catalog from the shop's server.</summary>
    public sealed class CatalogClient : IDisposable
    {
        private readonly HttpClient http = new HttpClient();
        private readonly string baseUrl;

        public CatalogClient()
        {
            baseUrl = Environment.GetEnvironmentVariable("SHOP_URL") ?? "http://localhost:8080";
        }

        public async Task<Item[]> FetchAsync(string category)
        {
            var body = await http.GetStringAsync(baseUrl + "/catalog/" + category);
            return body.Split('\n').Select(Item.Parse).ToArray();
        }

        public void OpenInBrowser() => Process.Start("xdg-open", baseUrl);

        public void Dispose() => http.Dispose();

        private delegate void Progress(int done, int total);
    }
}
