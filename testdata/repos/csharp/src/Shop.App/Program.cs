using System;
using Shop.Core.Inventory;
using Shop.Core.Net;
using Shop.Core.Pricing;
using M = Shop.Core.Models;

namespace Shop.App
{
    internal static class Program
    {
        private static int Main(string[] args)
        {
            if (args.Length == 0)
            {
                Console.Error.WriteLine("usage: shop FILE");
                Environment.Exit(2);
            }
            var store = Store.Load(args[0], new PriceRules(0.1m));
            store.Add(new M.Item("pen", 1.5m, M.Category.Tools));
            Console.WriteLine(store.Describe());
            Console.WriteLine(store.Quote("pen"));
            using var client = new CatalogClient();
            var items = client.FetchAsync("food").Result;
            Report(items.Length);
            return 0;

            void Report(int n) => Console.WriteLine($"{n} items fetched");
        }
    }
}
