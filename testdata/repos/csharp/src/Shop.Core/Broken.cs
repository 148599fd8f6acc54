using Shop.Core.Models;

namespace Shop.Core
{
    /// <summary>A file in the middle of an edit.</summary>
    public class Broken
    {
        public decimal Fine(Item item) => item.Total();

        public void Half(Item item
        {
            var x = item.Total(;
        }

        public string After() => Fine(null).ToString();
    }
}
