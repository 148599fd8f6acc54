using NUnit.Framework;
using Shop.Core.Inventory;
using Shop.Core.Models;
using Shop.Core.Pricing;

namespace Shop.Core.Tests
{
    [TestFixture]
    public class StoreTests
    {
        private Store store = null!;

        [SetUp]
        public void Setup() => store = new Store("test", new PriceRules());

        [Test]
        public void AddThenFind()
        {
            store.Add(new Item("pen", 2m, Category.Tools));
            Assert.That(store.Find("pen"), Is.Not.Null);
        }

        [Test]
        public void QuoteAppliesDiscount()
        {
            var discounted = new Store("d", new PriceRules(0.5m));
            discounted.Add(new Item("pen", 10m, Category.Tools));
            Assert.AreEqual(6m, discounted.Quote("pen"));
        }

        private static Item Sample() => new Item("cup", 3m, Category.Misc);
    }
}
