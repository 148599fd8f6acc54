using Shop.Core.Models;

namespace Shop.Core.Inventory
{
    public interface IStore
    {
        int Count { get; }
        void Add(Item item);
        Item? Find(string name);
    }
}
