using System.Collections.Generic;
using Shop.Core.Models;
using Shop.Core.Pricing;

namespace Shop.Core.Inventory
{
    /// <summary>
    /// Keeps items by name. The persistence half lives in Store.Persistence.cs.
    /// </summary>
    public partial class Store : StoreBase, IStore
    {
        public const int MaxItems = 100;
        private readonly Dictionary<string, Item> _items = new();
        private readonly PriceRules rules;

        public Store(string name, PriceRules rules) : base(name)
        {
            this.rules = rules;
        }

        public int Count => _items.Count;

        public void Add(Item item)
        {
            ArgumentNullException.ThrowIfNull(item);
            if (_items.Count >= MaxItems)
            {
                throw new InvalidOperationException("store is full");
            }
            _items[item.Name] = item;
            Log("added " + item.Name);
            this.Touch();
        }

        public Item? Find(string name) => _items.TryGetValue(name, out var item) ? item : null;

        public decimal Quote(string name)
        {
            var item = Find(name);
            if (item == null) return 0;
            decimal total = item.Total();
            return rules.Apply(total).Round();
        }

        public override string Describe()
        {
            return base.Describe() + $" with {Count} items";
        }

        private void Touch() => Saved = false;
    }
}
