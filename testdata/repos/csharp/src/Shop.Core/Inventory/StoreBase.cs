using System;

namespace Shop.Core.Inventory
{
    /// <summary>What every store does: logging and a description.</summary>
    public abstract class StoreBase
    {
        protected readonly string name;

        protected StoreBase(string name)
        {
            this.name = name;
        }

        protected void Log(string message) => Console.WriteLine($"[{name}] {message}");

        public virtual string Describe() => "store " + name;
    }
}
