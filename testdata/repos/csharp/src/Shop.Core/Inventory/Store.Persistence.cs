using System.IO;
using System.Linq;
using Shop.Core.Models;

namespace Shop.Core.Inventory
{
    public partial class Store
    {
        public bool Saved { get; private set; }

        /// <summary>Writes the items to a CSV file.</summary>
        public void Save(string path)
        {
            var lines = _items.Values.Select(i => $"{i.Name},{i.Price}");
            File.WriteAllLines(path, lines);
            Saved = true;
            Log("saved to " + path);
        }

        /// <summary>Reads items from a CSV file, adding each.</summary>
        public static Store Load(string path, PriceRules rules)
        {
            var store = new Store(Path.GetFileNameWithoutExtension(path), rules);
            foreach (var line in File.ReadAllLines(path))
            {
                store.Add(Item.Parse(line));
            }
            return store;
        }
    }
}
